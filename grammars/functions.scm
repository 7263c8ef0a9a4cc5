; Kernels and device functions: the qualifiers are anonymous tokens that are direct
; children of function_definition (see parsers.md), so they are matched by string.
(function_definition "__global__") @kernel
(function_definition "__device__") @device_function
