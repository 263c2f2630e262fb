package registry

var def = New()

// Default returns the process-wide registry.
func Default() *Registry { return def }
