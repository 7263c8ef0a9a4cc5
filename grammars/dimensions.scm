; dim3 variables in host code whose values feed a launch: dim3 grid(x, y) / dim3 block = dim3(...)
(declaration
  type: (type_identifier) @type
  declarator: [
    (function_declarator declarator: (identifier) @name parameters: (parameter_list) @values)
    (init_declarator declarator: (identifier) @name value: (argument_list) @values)
    (init_declarator declarator: (identifier) @name value: (initializer_list) @values)
    (init_declarator declarator: (identifier) @name value: (_) @value)
  ]
  (#eq? @type "dim3")) @declaration
