#!/usr/bin/env bash
# tests/kb_llm twice (and tests/kb_heldout/layernorm once) through the whole engine on the H200.
# Everything lands in $OUT; copy it to tests/data/h200/kb_llm/ (heldout_layernorm.jsonl to ../heldout/).
#   bash benchmarks/kb_llm_h200.sh      (from the repository root; needs .whl/ with tree-sitter wheels)
set -u
OUT=${OUT:-/tmp/kb-llm-h200}
. benchmarks/h200_setup.sh
timeout "${KB_LLM_SECONDS:-470}" python3 benchmarks/kb_llm_h200.py "$OUT" > "$OUT/kb_llm.log" 2>&1
echo "exit $?" >> "$OUT/kb_llm.log"
tail -5 "$OUT/kb_llm.log"
