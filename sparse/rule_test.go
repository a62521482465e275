package sparse_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/sparse"
)

// numbersSpec has an index with a number key, for type checks, and an LSI.
var numbersSpec = keyfirst.TableSpec{
	Name:         "numbers",
	PartitionKey: keyfirst.StringAttr("PK"),
	SortKey:      keyfirst.StringAttr("SK"),
	GSIs: []keyfirst.Index{
		{Name: "by-score", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("board")}, SortKey: []keyfirst.Attribute{keyfirst.NumberAttr("score")}},
		{Name: "by-blob", PartitionKey: []keyfirst.Attribute{keyfirst.BinaryAttr("blob")}},
	},
	LSIs: []keyfirst.Index{{Name: "local", SortKey: []keyfirst.Attribute{keyfirst.StringAttr("LSK")}}},
}

type Player struct {
	Name   string `dynamodbav:"name"`
	Score  int    `dynamodbav:"points"`
	Active bool   `dynamodbav:"active"`
}

func (p Player) IsActive() bool { return p.Active }

func TestRuleIndexKeysRefusesBadRules(t *testing.T) {
	t.Parallel()
	table := mustTable(t, numbersSpec)
	board := sparse.String(func(Player) (string, error) { return "B", nil })
	score := sparse.Number(func(p Player) (int, error) { return p.Score, nil })
	active := Player.IsActive
	tests := []struct {
		name    string
		rule    sparse.Rule[Player]
		table   *keyfirst.Table
		problem sparse.RuleProblem
		attr    string
	}{
		{"nil predicate", sparse.In[Player]("by-score", nil).Key("board", board).Key("score", score), table, sparse.RuleNoPredicate, ""},
		{"nil table", sparse.In("by-score", active).Key("board", board).Key("score", score), nil, sparse.RuleNoTable, ""},
		{"no index", sparse.In("", active).Key("board", board), table, sparse.RuleNoIndex, ""},
		{"unknown index", sparse.In("by-age", active).Key("board", board), table, sparse.RuleUnknownIndex, ""},
		{"no keys", sparse.In("by-score", active), table, sparse.RuleNoKeys, ""},
		{"zero value", sparse.In("by-score", active).Key("board", sparse.Value[Player]{}), table, sparse.RuleNoValue, "board"},
		{"nil function", sparse.In("by-score", active).Key("board", sparse.String[Player](nil)), table, sparse.RuleNoValue, "board"},
		{"nil number function", sparse.In("by-score", active).Key("score", sparse.Number[Player, int](nil)), table, sparse.RuleNoValue, "score"},
		{"nil binary function", sparse.In("by-blob", active).Key("blob", sparse.Binary[Player](nil)), table, sparse.RuleNoValue, "blob"},
		{"not a key of the index", sparse.In("by-score", active).Key("board", board).Fixed("rank", "1"), table, sparse.RuleNotIndexKey, "rank"},
		{"key of another index", sparse.In("by-score", active).Key("board", board).Fixed("LSK", "x"), table, sparse.RuleNotIndexKey, "LSK"},
		{"table partition key in an LSI", sparse.In("local", active).Fixed("PK", "x").Fixed("LSK", "x"), table, sparse.RulePrimaryKey, "PK"},
		{"attribute twice", sparse.In("by-score", active).Key("board", board).Fixed("board", "A"), table, sparse.RuleDuplicateKey, "board"},
		{"string for a number key", sparse.In("by-score", active).Key("board", board).Key("score", board), table, sparse.RuleKeyType, "score"},
		{"fixed string for a number key", sparse.In("by-score", active).Key("board", board).Fixed("score", "10"), table, sparse.RuleKeyType, "score"},
		{"number for a string key", sparse.In("by-score", active).Key("board", score).Key("score", score), table, sparse.RuleKeyType, "board"},
		{"string for a binary key", sparse.In("by-blob", active).Key("blob", board), table, sparse.RuleKeyType, "blob"},
		{"binary for a string key", sparse.In("local", active).Key("LSK", sparse.Binary(func(Player) ([]byte, error) { return []byte{1}, nil })), table, sparse.RuleKeyType, "LSK"},
		{"empty fixed value", sparse.In("local", active).Fixed("LSK", ""), table, sparse.RuleEmptyValue, "LSK"},
		{"fixed sort key over 1024 bytes", sparse.In("local", active).Fixed("LSK", strings.Repeat("x", 1025)), table, sparse.RuleValueTooLong, "LSK"},
		{"fixed partition key over 2048 bytes", sparse.In("by-score", active).Fixed("board", strings.Repeat("x", 2049)).Key("score", score), table, sparse.RuleValueTooLong, "board"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			keys, err := tc.rule.IndexKeys(tc.table)
			var re *sparse.RuleError
			if !errors.As(err, &re) || !errors.Is(err, sparse.ErrInvalidRule) {
				t.Fatalf("IndexKeys = %v, %v; want a *RuleError wrapping ErrInvalidRule", keys, err)
			}
			if re.Problem != tc.problem || re.Attribute != tc.attr || re.Index != tc.rule.Index() {
				t.Errorf("got problem %v, attribute %q, index %q; want %v, %q, %q", re.Problem, re.Attribute, re.Index, tc.problem, tc.attr, tc.rule.Index())
			}
			if keys != nil {
				t.Errorf("keys = %v, want nil with an error", keys)
			}
			if !strings.HasPrefix(err.Error(), "sparse: invalid membership rule: "+tc.problem.String()) {
				t.Errorf("message %q does not start with the sentinel and the problem", err)
			}
		})
	}
}

func TestRuleIndexKeysAcceptsBoundaries(t *testing.T) {
	t.Parallel()
	table := mustTable(t, numbersSpec)
	tests := []struct {
		name string
		rule sparse.Rule[Player]
	}{
		{"fixed sort key of 1024 bytes", sparse.In("local", Player.IsActive).Fixed("LSK", strings.Repeat("x", 1024))},
		{"fixed partition key of 2048 bytes", sparse.In("by-score", Player.IsActive).Fixed("board", strings.Repeat("x", 2048)).
			Key("score", sparse.Number(func(p Player) (float64, error) { return float64(p.Score), nil }))},
		{"binary key", sparse.In("by-blob", Player.IsActive).Key("blob", sparse.Binary(func(p Player) ([]byte, error) { return []byte(p.Name), nil }))},
		{"part of the key (the rest left to fields of T)", sparse.In("by-score", Player.IsActive).Fixed("board", "B")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			keys, err := tc.rule.IndexKeys(table)
			if err != nil {
				t.Fatal(err)
			}
			if len(keys) == 0 {
				t.Fatal("no derivations")
			}
		})
	}
}

// The derivations of a rule: the values while the predicate holds, no
// value (the attribute removed) otherwise.
func TestRuleDerivations(t *testing.T) {
	t.Parallel()
	table := mustTable(t, ticketSpec)
	derive, err := openTickets.IndexKeys(table)
	if err != nil {
		t.Fatal(err)
	}
	if len(derive) != 2 || derive["openBucket"] == nil || derive["openedAt"] == nil {
		t.Fatalf("derivations for %v, want openBucket and openedAt", derive)
	}
	open := ticket("a", Open, at(9, 30))
	bucket, ok, err := derive["openBucket"](open)
	if err != nil || !ok || bucket.(*types.AttributeValueMemberS).Value != "OPEN" {
		t.Errorf("openBucket of an open ticket = %v, %v, %v; want OPEN", bucket, ok, err)
	}
	openedAt, ok, err := derive["openedAt"](open)
	if err != nil || !ok || openedAt.(*types.AttributeValueMemberS).Value != "2026-06-23T09:30:00.000000" {
		t.Errorf("openedAt of an open ticket = %v, %v, %v", openedAt, ok, err)
	}
	for attr, d := range derive {
		if v, ok, err := d(ticket("a", Resolved, at(9, 30))); ok || v != nil || err != nil {
			t.Errorf("%s of a resolved ticket = %v, %v, %v; want no value", attr, v, ok, err)
		}
	}
	// A fixed value is a new AttributeValue per item: items share nothing.
	again, _, _ := derive["openBucket"](open)
	if again == bucket {
		t.Error("two items share one AttributeValue")
	}
	if !openTickets.Holds(open) || openTickets.Holds(ticket("a", Resolved, at(9, 30))) {
		t.Error("Holds does not follow the predicate")
	}
}

// A rule is a value: extending it twice gives two independent rules.
func TestRuleIsAValue(t *testing.T) {
	t.Parallel()
	table := mustTable(t, numbersSpec)
	base := sparse.In("by-score", Player.IsActive).Fixed("board", "B")
	withScore := base.Key("score", sparse.Number(func(p Player) (int, error) { return p.Score, nil }))
	withBad := base.Fixed("board", "again") // an error in this copy only
	if _, err := withBad.IndexKeys(table); err == nil {
		t.Fatal("duplicate attribute accepted")
	}
	for name, r := range map[string]sparse.Rule[Player]{"base": base, "withScore": withScore} {
		keys, err := r.IndexKeys(table)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := map[string]int{"base": 1, "withScore": 2}[name]
		if len(keys) != want {
			t.Errorf("%s derives %d attributes, want %d", name, len(keys), want)
		}
	}
	// Extending one copy after another does not write into a shared array.
	a := base.Fixed("score", "1")
	b := base.Key("score", sparse.Number(func(p Player) (int, error) { return 7, nil }))
	if _, err := a.IndexKeys(table); !errors.Is(err, sparse.ErrInvalidRule) {
		t.Fatalf("a: fixed string on a number key accepted: %v", err)
	}
	keys, err := b.IndexKeys(table)
	if err != nil {
		t.Fatalf("b was changed by a: %v", err)
	}
	v, _, _ := keys["score"](Player{Active: true})
	if v.(*types.AttributeValueMemberN).Value != "7" {
		t.Errorf("b's score = %v, want 7", v)
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	table := mustTable(t, ticketSpec)
	base := keyfirst.EntitySpec[Ticket]{
		Type:         "Ticket",
		PartitionKey: keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET#" + t.ID, nil }),
		SortKey:      keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET", nil }),
	}
	t.Run("adds the rule's derivations", func(t *testing.T) {
		spec, err := sparse.Apply(table, base, openTickets)
		if err != nil {
			t.Fatal(err)
		}
		if len(spec.Indexes) != 1 || len(spec.Indexes[openTicketsIndex]) != 2 {
			t.Fatalf("Indexes = %v", spec.Indexes)
		}
		if base.Indexes != nil {
			t.Error("Apply changed the caller's spec")
		}
	})
	t.Run("keeps the caller's map intact", func(t *testing.T) {
		mine := map[string]keyfirst.IndexKeys[Ticket]{}
		withMap := base
		withMap.Indexes = mine
		spec, err := sparse.Apply(table, withMap, openTickets)
		if err != nil {
			t.Fatal(err)
		}
		if len(mine) != 0 || len(spec.Indexes) != 1 {
			t.Errorf("caller's map has %d entries, result %d; want 0 and 1", len(mine), len(spec.Indexes))
		}
	})
	refused := []struct {
		name    string
		spec    keyfirst.EntitySpec[Ticket]
		rules   []sparse.Rule[Ticket]
		problem sparse.RuleProblem
	}{
		{"two rules for one index", base, []sparse.Rule[Ticket]{openTickets, sparse.In(openTicketsIndex, Ticket.IsOpen).Fixed("openBucket", "X")}, sparse.RuleDuplicateIndex},
		{"index derived by the spec", func() keyfirst.EntitySpec[Ticket] {
			s := base
			s.Indexes = map[string]keyfirst.IndexKeys[Ticket]{openTicketsIndex: {"openBucket": keyfirst.DeriveString(func(Ticket) (string, error) { return "OPEN", nil })}}
			return s
		}(), []sparse.Rule[Ticket]{openTickets}, sparse.RuleIndexTaken},
		{"a bad rule", base, []sparse.Rule[Ticket]{sparse.In(openTicketsIndex, Ticket.IsOpen).Fixed("openBucket", "")}, sparse.RuleEmptyValue},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sparse.Apply(table, tc.spec, tc.rules...)
			var re *sparse.RuleError
			if !errors.As(err, &re) || re.Problem != tc.problem {
				t.Fatalf("Apply = %v, want problem %v", err, tc.problem)
			}
		})
	}
}

// The items the root package builds from rule-derived entities: SET while
// the predicate holds, absent otherwise. Both forms of seed 000 and seed
// 001's tickets.
func TestRuleItems(t *testing.T) {
	t.Parallel()
	_, tickets := newTickets(t, false)
	_, orgs, users := newSaaS(t, "saas")
	s := newShop(t, "shop")
	type built = func() (map[string]types.AttributeValue, error)
	ticketItem := func(s Status) built {
		return func() (map[string]types.AttributeValue, error) { return tickets.Item(ticket("a", s, at(8, 0))) }
	}
	userItem := func(r Role) built {
		return func() (map[string]types.AttributeValue, error) {
			return users.Item(User{Org: "acme", Name: "u", Role: r})
		}
	}
	tests := []struct {
		name    string
		item    built
		present map[string]string // attribute -> value
		absent  []string
	}{
		{"open ticket", ticketItem(Open), map[string]string{"openBucket": "OPEN", "openedAt": "2026-06-23T08:00:00.000000"}, nil},
		{"resolved ticket", ticketItem(Resolved), nil, []string{"openBucket", "openedAt"}},
		{"admin", userItem(Admin), map[string]string{"GSI1PK": "ORG#acme", "GSI1SK": "Admin"}, nil},
		{"member", userItem(Member), nil, []string{"GSI1PK", "GSI1SK"}},
		{"organization (dense in the same index)", func() (map[string]types.AttributeValue, error) { return orgs.Item(Organization{Name: "acme"}) },
			map[string]string{"GSI1PK": "ORG#acme", "GSI1SK": "ORG#acme"}, nil},
		{"customer", func() (map[string]types.AttributeValue, error) { return s.customers.Item(Customer{ID: "c1"}) },
			map[string]string{"CustomerIndexId": "c1"}, nil},
		{"order", func() (map[string]types.AttributeValue, error) { return s.orders.Item(Order{Customer: "c1", ID: "o1"}) },
			nil, []string{"CustomerIndexId"}},
		{"inventory item", func() (map[string]types.AttributeValue, error) { return s.inventory.Item(InventoryItem{SKU: "k"}) },
			nil, []string{"CustomerIndexId"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			item, err := tc.item()
			if err != nil {
				t.Fatal(err)
			}
			for attr, want := range tc.present {
				if got, ok := item[attr].(*types.AttributeValueMemberS); !ok || got.Value != want {
					t.Errorf("%s = %v, want %q", attr, item[attr], want)
				}
			}
			for _, attr := range tc.absent {
				if v, ok := item[attr]; ok {
					t.Errorf("%s = %v, want no attribute at all", attr, v)
				}
			}
		})
	}
}

// noCalls is a client that fails the test on any request: bad input must be
// refused before anything is sent.
type noCalls struct {
	t     *testing.T
	calls int
	// stored is what GetItem returns (Modify reads before it writes).
	stored map[string]types.AttributeValue
}

func (c *noCalls) fail(op string) {
	c.t.Helper()
	c.calls++
	c.t.Errorf("%s sent, but the input was invalid", op)
}

func (c *noCalls) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{Item: c.stored}, nil
}

func (c *noCalls) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.fail("PutItem")
	return &dynamodb.PutItemOutput{}, nil
}

func (c *noCalls) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.fail("UpdateItem")
	return &dynamodb.UpdateItemOutput{}, nil
}

func (c *noCalls) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	c.fail("BatchWriteItem")
	return &dynamodb.BatchWriteItemOutput{}, nil
}

// Bad values at write time: a rule that derives an empty string, a value
// function that fails, and (without rules) a derivation of the wrong type.
// Each is refused by every write path before the request, with the index and
// attribute named.
func TestBadValuesRefusedBeforeTheRequest(t *testing.T) {
	t.Parallel()
	errNoOpening := errors.New("no opening time")
	ticketEntity := func(t *testing.T, derive func(*keyfirst.Table) (map[string]keyfirst.IndexKeys[Ticket], error)) *keyfirst.Entity[Ticket] {
		t.Helper()
		table := mustTable(t, ticketSpec)
		indexes, err := derive(table)
		if err != nil {
			t.Fatal(err)
		}
		e, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[Ticket]{
			Type:         "Ticket",
			PartitionKey: keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET#" + t.ID, nil }),
			SortKey:      keyfirst.DeriveString(func(t Ticket) (string, error) { return "TICKET", nil }),
			Indexes:      indexes,
		})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	withRule := func(r sparse.Rule[Ticket]) func(*keyfirst.Table) (map[string]keyfirst.IndexKeys[Ticket], error) {
		return func(table *keyfirst.Table) (map[string]keyfirst.IndexKeys[Ticket], error) {
			keys, err := r.IndexKeys(table)
			return map[string]keyfirst.IndexKeys[Ticket]{r.Index(): keys}, err
		}
	}
	raw := func(keys keyfirst.IndexKeys[Ticket]) func(*keyfirst.Table) (map[string]keyfirst.IndexKeys[Ticket], error) {
		return func(*keyfirst.Table) (map[string]keyfirst.IndexKeys[Ticket], error) {
			return map[string]keyfirst.IndexKeys[Ticket]{openTicketsIndex: keys}, nil
		}
	}
	tests := []struct {
		name    string
		derive  func(*keyfirst.Table) (map[string]keyfirst.IndexKeys[Ticket], error)
		problem keyfirst.ItemProblem
		attr    string
		cause   error
	}{
		{"rule derives an empty string", withRule(sparse.In(openTicketsIndex, Ticket.IsOpen).Fixed("openBucket", "OPEN").
			Key("openedAt", sparse.String(func(Ticket) (string, error) { return "", nil }))), keyfirst.ItemEmptyKey, "openedAt", nil},
		{"rule value fails", withRule(sparse.In(openTicketsIndex, Ticket.IsOpen).Fixed("openBucket", "OPEN").
			Key("openedAt", sparse.String(func(Ticket) (string, error) { return "", errNoOpening }))), keyfirst.ItemDerive, "openedAt", errNoOpening},
		{"raw derivation of an empty string", raw(keyfirst.IndexKeys[Ticket]{
			"openBucket": keyfirst.DeriveStringIf(func(t Ticket) (string, bool, error) { return "", t.IsOpen(), nil }),
			"openedAt":   keyfirst.DeriveStringIf(func(t Ticket) (string, bool, error) { return "x", t.IsOpen(), nil }),
		}), keyfirst.ItemEmptyKey, "openBucket", nil},
		{"raw derivation of the wrong type", raw(keyfirst.IndexKeys[Ticket]{
			"openBucket": keyfirst.DeriveStringIf(func(t Ticket) (string, bool, error) { return "OPEN", t.IsOpen(), nil }),
			"openedAt":   keyfirst.DeriveNumberIf(func(t Ticket) (int64, bool, error) { return t.OpenedAt.Unix(), t.IsOpen(), nil }),
		}), keyfirst.ItemKeyType, "openedAt", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := ticketEntity(t, tc.derive)
			open := ticket("a", Open, at(8, 0))
			stored, err := e.Item(ticket("a", Resolved, at(8, 0))) // a resolved ticket is fine
			if err != nil {
				t.Fatalf("a resolved ticket is refused: %v", err)
			}
			client := &noCalls{t: t, stored: stored}
			key, err := e.Key(open)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			paths := map[string]func() error{
				"Item":    func() error { _, err := e.Item(open); return err },
				"Put":     func() error { _, err := e.Put(ctx, client, open); return err },
				"Replace": func() error { _, err := e.Replace(ctx, client, open); return err },
				"Modify": func() error {
					_, err := e.Modify(ctx, client, key, func(t *Ticket) error { t.Status = Open; return nil })
					return err
				},
				"BatchWrite": func() error {
					return e.Table().BatchWrite(ctx, client, []keyfirst.WriteRequest{e.PutRequest(open)})
				},
			}
			for path, write := range paths {
				err := write()
				var ie *keyfirst.ItemError
				if !errors.As(err, &ie) || !errors.Is(err, keyfirst.ErrInvalidItem) {
					t.Errorf("%s = %v, want a *keyfirst.ItemError", path, err)
					continue
				}
				if ie.Problem != tc.problem || ie.Index != openTicketsIndex || ie.Attribute != tc.attr {
					t.Errorf("%s: problem %v, index %q, attribute %q; want %v, %q, %q", path, ie.Problem, ie.Index, ie.Attribute, tc.problem, openTicketsIndex, tc.attr)
				}
				if tc.cause != nil && !errors.Is(err, tc.cause) {
					t.Errorf("%s: %v does not wrap the value function's error", path, err)
				}
			}
			if client.calls != 0 {
				t.Errorf("%d write requests sent", client.calls)
			}
		})
	}
}
