; Variables whose address the host code takes (`parseCommandline(argc, argv, &size)`): from there
; their values are unknown (host.py)
(pointer_expression
  operator: "&"
  argument: (identifier) @name) @address
