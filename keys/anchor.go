package keys

// Anchor is one whole concatenated key used as a bound, for item
// collections that mix key shapes in one partition (seed 000): a repo's
// own sort key REPO#keyfirst sorts between its issues (ISSUE#...) and its
// stars (STAR#...), so the repo and its issues are
// Between(issueSK.Start(), repoSK.At("keyfirst")) and the repo and its
// stars Between(repoSK.At("keyfirst"), starSK.End()).
//
// Build anchors with the At, Start and End methods of [Key1] .. [Key4].
// Conditions built from anchors compare whole strings, so they have no
// native multi-attribute form ([ErrNotNative]). An Anchor keeps the error
// of its construction and returns it from every method.
type Anchor struct {
	key string
	def DefID // the key definition the Anchor came from
	err error
}

// Key returns the anchor's string and the error of its construction.
func (a Anchor) Key() (string, error) { return a.key, a.ready() }

// ready returns the Anchor's construction error; the zero Anchor is
// unusable.
func (a Anchor) ready() error {
	if a.err == nil && a.key == "" {
		return defErr(nil, "zero Anchor value: get anchors from a key's At, Start and End methods")
	}
	return a.err
}

// cond builds a single-operand condition on the anchor.
func (a Anchor) cond(op Op) (Cond, error) {
	if err := a.ready(); err != nil {
		return Cond{}, err
	}
	return Cond{op: op, lo: a.key, noNative: true, def: a.def}, nil
}

// Eq selects the key equal to the anchor.
func (a Anchor) Eq() (Cond, error) { return a.cond(OpEq) }

// Lt selects the keys that sort before the anchor.
func (a Anchor) Lt() (Cond, error) { return a.cond(OpLt) }

// Le selects the anchor and the keys that sort before it (seed 000: the
// repo and, read newest first, its issues; exact only if no other key
// shape sorts below; prefer [Between] with the issues' Start).
func (a Anchor) Le() (Cond, error) { return a.cond(OpLe) }

// Gt selects the keys that sort after the anchor.
func (a Anchor) Gt() (Cond, error) { return a.cond(OpGt) }

// Ge selects the anchor and the keys that sort after it.
func (a Anchor) Ge() (Cond, error) { return a.cond(OpGe) }

// Between selects the keys from lo through hi, both inclusive. lo above hi
// is [ErrEmptyRange]. The anchors may come from two keys (the repo and
// its issues above); the condition remembers both ([Cond.Defs]).
func Between(lo, hi Anchor) (Cond, error) {
	if err := lo.ready(); err != nil {
		return Cond{}, err
	}
	if err := hi.ready(); err != nil {
		return Cond{}, err
	}
	if lo.key > hi.key {
		return Cond{}, &SegmentError{Kind: "key", Value: lo.key, Err: ErrEmptyRange}
	}
	c := Cond{op: OpBetween, lo: lo.key, hi: hi.key, noNative: true, def: lo.def}
	if hi.def != lo.def {
		c.def2 = hi.def
	}
	return c, nil
}
