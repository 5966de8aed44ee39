package crd

// Default sets the schema's defaults in x, the content of a custom resource:
// a field with a default that is absent, or null without being nullable,
// takes a copy of the default, at every level, and so do null items and map
// values whose schema has a default.
func (s *Schema) Default(x any) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for _, k := range s.propertyNames {
			c := s.Properties[k]
			if !c.HasDefault {
				continue
			}
			if v, ok := x[k]; !ok || (v == nil && !c.Nullable) {
				x[k] = copyJSON(c.DefaultValue)
			}
		}
		for k, v := range x {
			if c, ok := s.Properties[k]; ok {
				c.Default(v)
			} else if a := s.AdditionalProperties; a != nil {
				if v == nil && !a.Nullable {
					v = copyJSON(a.DefaultValue)
					x[k] = v
				}
				a.Default(v)
			}
		}
	case []any:
		for i, v := range x {
			if s.Items != nil && v == nil && !s.Items.Nullable {
				x[i] = copyJSON(s.Items.DefaultValue)
			}
			s.Items.Default(x[i])
		}
	}
}

// copyJSON copies a decoded JSON value.
func copyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = copyJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = copyJSON(e)
		}
		return out
	}
	return v
}
