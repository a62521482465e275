package keys

// Literal returns a codec for a constant segment, an entity-type marker such
// as ORDER, EVT, ISSUE, REPO or STAR placed between typed segments. Its Go
// value is struct{}: it always encodes to s, and decodes only s (anything
// else is [ErrMalformed]). For the usual leading marker, prefer the key
// option [WithPrefix], which needs no argument at each call. s follows the
// rules of an [ID] ([ErrDefinition] otherwise).
func Literal(s string) Codec[struct{}] {
	return literalCodec{s: s}
}

type literalCodec struct{ s string }

// Append implements [Codec].
func (c literalCodec) Append(dst []byte, sep byte, v struct{}) ([]byte, error) {
	return appendWith[struct{}](c, dst, sep, v)
}

// Parse implements [Codec].
func (c literalCodec) Parse(seg string, sep byte) (struct{}, error) {
	return parseWith[struct{}](c, seg, sep)
}

func (c literalCodec) kind() string { return "literal" }

func (c literalCodec) check(sep byte) error {
	if err := checkChars(c.s, sep); err != nil {
		return defErr(err, "literal %q", c.s)
	}
	return nil
}

func (c literalCodec) size(struct{}) int { return len(c.s) }

func (c literalCodec) appendSeg(dst []byte, _ struct{}, sep byte) ([]byte, error) {
	if err := c.check(sep); err != nil {
		return dst, err
	}
	return append(dst, c.s...), nil
}

func (c literalCodec) decode(seg string, sep byte) (struct{}, error) {
	if err := c.check(sep); err != nil {
		return struct{}{}, err
	}
	if seg != c.s {
		return struct{}{}, ErrMalformed
	}
	return struct{}{}, nil
}

func (c literalCodec) prev(struct{}, byte, int) (struct{}, bool) { return struct{}{}, false }
