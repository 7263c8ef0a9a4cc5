; Calls of a function named by an identifier: the host functions whose parameters take what every
; caller passes (a size that each call makes a multiple of a constant)
(call_expression
  function: (identifier) @callee
  arguments: (argument_list) @arguments) @call
