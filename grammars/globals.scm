; Namespace-scope declarations: integer constants (constexpr/const) and device arrays
; (__device__, __constant__, __shared__ at file scope).
(translation_unit (declaration) @declaration)
(declaration_list (declaration) @declaration)
(preproc_if (declaration) @declaration)
(preproc_ifdef (declaration) @declaration)
