package keys_test

import (
	"testing"

	"github.com/keyfirst/keyfirst/keys"
)

// Seed 000's item collection: one partition holds a repo (REPO#<name>),
// its issues (ISSUE#<number>) and its stars (STAR#<user>), in that byte
// order: ISSUE < REPO < STAR. The partition is the repo's (PK REPO#<name>),
// so it holds no other repo.
var (
	repoSK  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	issueSK = keys.NewKey1(keys.Uint[uint32](7), keys.WithPrefix("ISSUE"))
	starSK  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("STAR"))
	// forkSK sorts before ISSUE: it shows why Le alone is not exact.
	forkSK = keys.NewKey1(keys.ID[string](), keys.WithPrefix("FORK"))
)

func TestAnchorsSeed000(t *testing.T) {
	repo := keys.Must(repoSK.Encode("keyfirst"))
	issues := []string{keys.Must(issueSK.Encode(1)), keys.Must(issueSK.Encode(9999999))}
	stars := []string{keys.Must(starSK.Encode("alice")), keys.Must(starSK.Encode("~zed"))}
	fork := keys.Must(forkSK.Encode("someone"))

	repoAndIssues, err := keys.Between(issueSK.Start(), repoSK.At("keyfirst"))
	wantErr(t, err, nil)
	repoAndStars, err := keys.Between(repoSK.At("keyfirst"), starSK.End())
	wantErr(t, err, nil)
	asSeed, err := repoSK.At("keyfirst").Le()
	wantErr(t, err, nil)

	for _, tc := range []struct {
		name string
		cond keys.Cond
		in   []string
		out  []string
	}{
		{"repo and its issues", repoAndIssues, append([]string{repo}, issues...), append([]string{fork}, stars...)},
		{"repo and its stars", repoAndStars, append([]string{repo}, stars...), append([]string{fork}, issues...)},
		{"seed's SK <= repo also takes other shapes below", asSeed, append([]string{repo, fork}, issues...), stars},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range tc.in {
				if !tc.cond.Match(k) {
					t.Errorf("%v does not match %s", tc.cond, k)
				}
			}
			for _, k := range tc.out {
				if tc.cond.Match(k) {
					t.Errorf("%v matches %s", tc.cond, k)
				}
			}
		})
	}
}

func TestAnchorOps(t *testing.T) {
	a := issueSK.At(42)
	key, err := a.Key()
	check(t, key, err, "ISSUE#0000042")
	for _, tc := range []struct {
		f    func() (keys.Cond, error)
		want string
	}{
		{a.Eq, `= "ISSUE#0000042"`},
		{a.Lt, `< "ISSUE#0000042"`},
		{a.Le, `<= "ISSUE#0000042"`},
		{a.Gt, `> "ISSUE#0000042"`},
		{a.Ge, `>= "ISSUE#0000042"`},
		{issueSK.Start().Ge, `>= "ISSUE#"`},
		{issueSK.End().Lt, `< "ISSUE$"`},
	} {
		c, err := tc.f()
		wantErr(t, err, nil)
		if c.String() != tc.want {
			t.Errorf("got %v, want %s", c, tc.want)
		}
	}
}

func TestAnchorErrors(t *testing.T) {
	noPrefix := keys.NewKey1(keys.ID[string]())
	_, err := noPrefix.Start().Ge()
	wantErr(t, err, keys.ErrNoCondition)
	_, err = noPrefix.End().Le()
	wantErr(t, err, keys.ErrNoCondition)
	_, err = keys.Between(starSK.Start(), issueSK.End())
	wantErr(t, err, keys.ErrEmptyRange)
	_, err = keys.Between(repoSK.At("a#b"), starSK.End())
	wantErr(t, err, keys.ErrSeparator)
	_, err = keys.Between(repoSK.Start(), repoSK.At(""))
	wantErr(t, err, keys.ErrEmpty)
	_, err = issueSK.At(10_000_000).Eq()
	wantErr(t, err, keys.ErrOutOfRange)
}
