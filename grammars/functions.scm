; Kernels and device functions: the qualifiers are anonymous tokens that are direct
; children of function_definition (see parsers.md), so they are matched by string.
(function_definition "__global__") @kernel
(function_definition "__device__") @device_function
; a qualifier macro (`#define DEVICE __device__`) parses as the return type: scope.py checks the macro
(function_definition type: (type_identifier) @qualifier) @qualified_function
