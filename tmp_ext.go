package weblink

// TEMPORARY until extvalue branch merges.
type ExtValue struct{ Charset, Lang, Value string }

func ParseExtValue(s string) (ExtValue, error) { return ExtValue{}, nil }
func (v ExtValue) appendTo(b []byte) []byte  { return append(b, "UTF-8''"+v.Value...) }
func wellFormedLang(s string) bool           { return s != "" }
