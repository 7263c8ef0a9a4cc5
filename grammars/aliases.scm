; Host-side names for a kernel: `auto k = kernel<int>;`, `auto k = &kernel;` (launched as k<<<...>>>)
(init_declarator
  declarator: (identifier) @alias
  value: [(identifier) (template_function) (qualified_identifier) (pointer_expression)] @value)
