; User-defined aggregate types and aliases, for element sizes and field offsets.
(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @struct
(type_definition
  type: (_) @type
  declarator: (type_identifier) @name) @typedef
(alias_declaration
  name: (type_identifier) @name
  type: (type_descriptor) @type) @alias
(type_definition
  type: (_) @type
  declarator: (array_declarator) @array) @typedef
