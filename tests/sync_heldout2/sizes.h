#pragma once
#define TILE 16
#define RADIUS 3
#define STENCIL_BS 128
#define N_ELEMS 1000
#define FULL_MASK 0xffffffffu
#define WARP 32
