package keyfirst

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// maxSharedTexts is the most values of an entity whose texts its items
// compute once (the bits of funcResults.have).
const maxSharedTexts = 8

// sharedTexts are the texts of an item's derived values that several of
// its attributes store (a partition and a sort key of one pattern over one
// field, an index's key that repeats the table's): each computed once per
// item, each attribute given its own value holding it.
type sharedTexts struct {
	texts [maxSharedTexts]string
	have  uint8 // bit i: texts[i] is computed
}

// shareText gives d, attribute i of binding k, the text slot of its value
// when another derivation of the entity provably computes the same text:
// a string that one keys definition (the same one, not an equal one: its
// identity) encodes the same way (the whole key, or the same segment of
// it) from the same fields of T, which is what equal sameValues say. A
// value computed by a function, stored as it is, or a constant is never
// shared.
func (b *entityBuilder[T]) shareText(k *boundKey[T], i int, d *derivation[T]) {
	sv := k.same[i]
	if !sharableText(sv) {
		return
	}
	if b.textCount == nil {
		b.textCount = map[sameValue]int{}
		for bi := range b.bound {
			o := &b.bound[bi]
			for oi := range o.same {
				if o.attr != nil && o.attr[oi] != nil && sharableText(o.same[oi]) {
					b.textCount[o.same[oi]]++
				}
			}
		}
		b.textSlot = map[sameValue]int{}
	}
	if b.textCount[sv] < 2 {
		return
	}
	slot, ok := b.textSlot[sv]
	if !ok {
		if len(b.textSlot) == maxSharedTexts {
			return
		}
		slot = len(b.textSlot) + 1
		b.textSlot[sv] = slot
	}
	d.shared, d.value, d.when = slot, k.attr[i], nil
	if k.plain != nil {
		d.value, d.when = k.plain[i], k.cond
	}
}

// sharableText reports whether a value identified by sv is a keys
// definition's string over fields of T.
func sharableText(sv sameValue) bool {
	return !sv.def.IsZero() && sv.typ == types.ScalarAttributeTypeS && sv.konst == "" && sv.fields != ""
}

// sharedText derives d, whose text other attributes of the item share:
// its binding's If first, then the text computed for the first of them,
// in a value of d's own.
func (fr *funcResults[T]) sharedText(d *derivation[T], v *T) (types.AttributeValue, bool, error) {
	if d.when != nil && !d.when(v) {
		return nil, false, nil
	}
	slot := d.shared - 1
	bit := uint8(1) << slot
	if fr.shared.have&bit != 0 {
		return fr.sl.Str(fr.shared.texts[slot]), true, nil
	}
	av, ok, err := d.value(v, fr.sl)
	if s, isS := av.(*types.AttributeValueMemberS); isS && ok && err == nil {
		fr.shared.texts[slot] = s.Value
		fr.shared.have |= bit
	}
	return av, ok, err
}
