package keys_test

import (
	"testing"

	"github.com/keyfirst/keyfirst/keys"
)

func TestLiteral(t *testing.T) {
	c := keys.Literal("ISSUE")
	b, err := c.Append(nil, '#', struct{}{})
	wantErr(t, err, nil)
	if string(b) != "ISSUE" {
		t.Fatalf("Append = %s", b)
	}
	_, err = c.Parse("ISSUE", '#')
	wantErr(t, err, nil)
	for _, s := range []string{"", "ISSUES", "ISSU", "issue"} {
		_, err := c.Parse(s, '#')
		wantErr(t, err, keys.ErrMalformed)
		wantSegment(t, err, 1, "literal")
	}
}

func TestLiteralDefinition(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		want error
	}{
		{"", keys.ErrEmpty},
		{"A#B", keys.ErrSeparator},
		{"A B", keys.ErrReserved},
		{"A\x7f", keys.ErrReserved},
		{"A\xff", keys.ErrMalformed},
	} {
		err := keys.NewKey2(keys.ID[string](), keys.Literal(tc.lit)).Err()
		wantErr(t, err, keys.ErrDefinition)
		wantErr(t, err, tc.want)
		wantSegment(t, err, 2, "literal")
		_, err = keys.Literal(tc.lit).Append(nil, '#', struct{}{})
		wantErr(t, err, tc.want)
		_, err = keys.Literal(tc.lit).Parse(tc.lit, '#')
		wantErr(t, err, tc.want)
	}
}

// A literal between typed segments: REPO#<owner>#ISSUE#<number>.
func TestLiteralInTheMiddle(t *testing.T) {
	k := keys.NewKey3(keys.ID[string](), keys.Literal("ISSUE"), keys.Uint[uint32](6), keys.WithPrefix("REPO"))
	s, err := k.Encode("keyfirst", struct{}{}, 42)
	wantErr(t, err, nil)
	if s != "REPO#keyfirst#ISSUE#000042" {
		t.Fatalf("Encode = %s", s)
	}
	_, _, _, err = k.Decode("REPO#keyfirst#STAR#000042")
	wantErr(t, err, keys.ErrMalformed)
	wantSegment(t, err, 2, "literal")
	c, err := k.With2("keyfirst", struct{}{}).BeginsWith()
	wantErr(t, err, nil)
	if !c.Match(s) || c.Match("REPO#keyfirst#ISSUES#000042") {
		t.Fatalf("%v matches the wrong keys", c)
	}
}

func FuzzLiteral(f *testing.F) {
	f.Add("ISSUE", "ISSUE")
	f.Add("REPO", "REPO#")
	f.Add("A", "")
	f.Fuzz(func(t *testing.T, lit, s string) {
		c := keys.Literal(lit)
		b, err := c.Append(nil, '#', struct{}{})
		if (err == nil) != (validID(lit, 1<<30) == nil) {
			t.Fatalf("Literal(%q).Append error = %v", lit, err)
		}
		if err != nil {
			return
		}
		if string(b) != lit {
			t.Fatalf("Literal(%q).Append = %q", lit, b)
		}
		if _, err := c.Parse(s, '#'); (err == nil) != (s == lit) {
			t.Fatalf("Literal(%q).Parse(%q) error = %v", lit, s, err)
		}
	})
}
