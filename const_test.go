package keyfirst_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/nocalls"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
	"github.com/keyfirst/keyfirst/txn"
)

// Seed 000's form 1 with a constant side: organizations and users share
// the overloaded GSI1; every organization is in it under its own name,
// and only admins under GSI1SK = "Admin". Seed 001's open tickets: a
// constant partition side, openBucket = "OPEN".
type (
	constOrg struct {
		Name string `dynamodbav:"Name"`
	}
	constUser struct {
		Org  string `dynamodbav:"Org"`
		Name string `dynamodbav:"Name"`
		Role string `dynamodbav:"Role"`
	}
	constTicket struct {
		ID       string `dynamodbav:"ID"`
		Open     bool   `dynamodbav:"Open"`
		OpenedAt string `dynamodbav:"OpenedAt"`
	}
)

func (u constUser) isAdmin() bool  { return u.Role == "Admin" }
func (t constTicket) isOpen() bool { return t.Open }

var (
	constOrgKey  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORG"))
	constUserKey = keys.NewKey1(keys.ID[string](), keys.WithPrefix("USER"))
	constTktKey  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("TICKET"))
	constOrgPK   = keyfirst.OnTable(keyfirst.Composite("PK", constOrgKey), keyfirst.Composite("SK", constOrgKey))
	constUserPK  = keyfirst.OnTable(keyfirst.Composite("PK", constOrgKey), keyfirst.Composite("SK", constUserKey))
	constTktPK   = keyfirst.OnTable(keyfirst.Composite("PK", constTktKey), keyfirst.Composite("SK", constTktKey))
	constOrgGSI1 = keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", constOrgKey), keyfirst.Composite("GSI1SK", constOrgKey))
	adminRole    = keyfirst.Const("GSI1SK", "Admin")
	adminsOf     = keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", constOrgKey), adminRole)
	openTickets  = keyfirst.OnIndex("Open", keyfirst.Const("openBucket", "OPEN"), keyfirst.Str("openedAt"))
)

type constSchema struct {
	table   *keyfirst.Table
	orgs    *keyfirst.Entity[constOrg]
	users   *keyfirst.Entity[constUser]
	tickets *keyfirst.Entity[constTicket]
}

func newConstSchema(t testing.TB) constSchema {
	t.Helper()
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "SaaS", Key: constOrgPK,
		GSIs: []keyfirst.Index{constOrgGSI1.Index(), openTickets.Index()}}))
	orgs, err1 := keyfirst.NewEntity(table, keyfirst.EntitySpec[constOrg]{Type: "Org",
		Keys: []keyfirst.Binding{constOrgPK.Fields("Name", "Name"), constOrgGSI1.Fields("Name", "Name")}})
	users, err2 := keyfirst.NewEntity(table, keyfirst.EntitySpec[constUser]{Type: "User",
		Keys: []keyfirst.Binding{constUserPK.Fields("Org", "Name"), keyfirst.If(adminsOf.Fields("Org"), constUser.isAdmin)}})
	tickets, err3 := keyfirst.NewEntity(table, keyfirst.EntitySpec[constTicket]{Type: "Ticket",
		Keys: []keyfirst.Binding{constTktPK.Fields("ID", "ID"), keyfirst.If(openTickets.Fields("OpenedAt"), constTicket.isOpen)}})
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	return constSchema{table, orgs, users, tickets}
}

// localConst creates the schema's table in DynamoDB Local for this test.
func localConst(t testing.TB) (*dynamodb.Client, constSchema) {
	t.Helper()
	s := newConstSchema(t)
	table := localBinding(t, s.table)
	return integration.Client(t), constSchema{table, keyfirst.Must(s.orgs.In(table)), keyfirst.Must(s.users.In(table)), keyfirst.Must(s.tickets.In(table))}
}

// gsi1 returns the stored GSI1PK and GSI1SK of user u ("" when absent).
func gsi1(t *testing.T, client *dynamodb.Client, s constSchema, u constUser) (pk, sk string, has [2]bool) {
	t.Helper()
	item := rawItem(t, client, s.table.Name(), map[string]types.AttributeValue{"PK": sAV("ORG#" + u.Org), "SK": sAV("USER#" + u.Name)})
	if item == nil {
		t.Fatalf("user %s/%s is not stored", u.Org, u.Name)
	}
	for i, n := range []string{"GSI1PK", "GSI1SK"} {
		if av, ok := item[n]; ok {
			has[i] = true
			if i == 0 {
				pk = avText(av)
			} else {
				sk = avText(av)
			}
		}
	}
	return pk, sk, has
}

// Every write path SETs the constant (and the partition beside it) when
// a user becomes an admin and REMOVEs both when an admin stops being one;
// the index then reads exactly the admins.
func TestConstSideOnEveryWritePath(t *testing.T) {
	t.Parallel()
	client, s := localConst(t)
	ctx := context.Background()
	paths := []struct {
		name  string
		write func(before, after constUser) error
	}{
		{"Put", func(_, after constUser) error { _, err := s.users.Put(ctx, client, after); return err }},
		{"Replace", func(_, after constUser) error { _, err := s.users.Replace(ctx, client, after); return err }},
		{"Modify", func(before, after constUser) error {
			k, err := s.users.Key(before)
			if err != nil {
				return err
			}
			_, err = s.users.Modify(ctx, client, k, func(u *constUser) { *u = after })
			return err
		}},
		{"BatchWrite", func(_, after constUser) error {
			return s.table.BatchWrite(ctx, client, []keyfirst.WriteRequest{s.users.PutRequest(after)})
		}},
		{"txn.Put", func(_, after constUser) error { return txn.Write(ctx, client, []txn.Action{txn.Put(s.users, after)}) }},
		{"txn.Replace", func(_, after constUser) error {
			return txn.Write(ctx, client, []txn.Action{txn.Replace(s.users, after)})
		}},
		{"Refresh", func(before, after constUser) error {
			// Another program changed the role and left the index's
			// attributes as they were: Refresh recomputes them.
			item := mustItem(t, s.users, before)
			item["Role"] = sAV(after.Role)
			putRaw(t, client, s.table.Name(), item)
			res, err := s.users.Refresh(ctx, client, item)
			if err == nil && res.Outcome != keyfirst.RefreshChanged {
				t.Errorf("Refresh of %s: %v, want changed", after.Name, res.Outcome)
			}
			return err
		}},
	}
	for _, p := range paths {
		org := "org-" + strings.ReplaceAll(strings.ToLower(p.name), ".", "-")
		member := constUser{Org: org, Name: "u", Role: "Member"}
		admin := member
		admin.Role = "Admin"
		if _, err := s.users.Put(ctx, client, member); err != nil {
			t.Fatal(err)
		}
		if err := p.write(member, admin); err != nil {
			t.Fatalf("%s: promote: %v", p.name, err)
		}
		if pk, sk, has := gsi1(t, client, s, admin); has != [2]bool{true, true} || pk != "ORG#"+org || sk != "Admin" {
			t.Errorf("%s: promoted, GSI1PK %q GSI1SK %q (present %v), want %q and \"Admin\"", p.name, pk, sk, has, "ORG#"+org)
		}
		if got := admins(t, s, org); !slices.Equal(got, []string{"u"}) {
			t.Errorf("%s: promoted, the admins of %s are %v, want [u]", p.name, org, got)
		}
		if err := p.write(admin, member); err != nil {
			t.Fatalf("%s: demote: %v", p.name, err)
		}
		if _, _, has := gsi1(t, client, s, member); has != [2]bool{} {
			t.Errorf("%s: demoted, GSI1PK/GSI1SK present %v, want both REMOVEd", p.name, has)
		}
		if got := admins(t, s, org); len(got) != 0 {
			t.Errorf("%s: demoted, the admins of %s are %v, want none", p.name, org, got)
		}
	}
}

// admins reads the admins of org through the pattern (eventually
// consistent on a GSI: DynamoDB Local applies index writes at once).
func admins(t *testing.T, s constSchema, org string) []string {
	t.Helper()
	found, err := query.On(s.users, adminsOf, org).Collect(context.Background(), integration.Client(t))
	if err != nil {
		t.Fatalf("the admins of %s: %v", org, err)
	}
	var names []string
	for _, u := range found {
		names = append(names, u.Name)
	}
	slices.Sort(names)
	return names
}

// The query of a constant sort side reads the admins and nothing else of
// the partition the organization shares with them (the organization's own
// item would be a DecodeError); the one of a constant partition side,
// given None{}, reads the open tickets, ordered by their sort key.
func TestConstSideQuery(t *testing.T) {
	t.Parallel()
	client, s := localConst(t)
	ctx := context.Background()
	var reqs []keyfirst.WriteRequest
	for _, o := range []string{"berkshire", "acme"} {
		reqs = append(reqs, s.orgs.PutRequest(constOrg{o}))
	}
	for _, u := range []constUser{{"berkshire", "warren", "Admin"}, {"berkshire", "charlie", "Member"}, {"berkshire", "ajit", "Admin"}, {"acme", "wile", "Admin"}} {
		reqs = append(reqs, s.users.PutRequest(u))
	}
	for _, tk := range []constTicket{{"t1", true, "09:00"}, {"t2", false, "08:00"}, {"t3", true, "07:00"}} {
		reqs = append(reqs, s.tickets.PutRequest(tk))
	}
	if err := s.table.BatchWrite(ctx, client, reqs); err != nil {
		t.Fatal(err)
	}
	if got := admins(t, s, "berkshire"); !slices.Equal(got, []string{"ajit", "warren"}) {
		t.Errorf("the admins of berkshire: %v, want [ajit warren]", got)
	}
	// The organization's own item is in the same GSI1 partition.
	orgs, err := query.On(s.orgs, constOrgGSI1, "berkshire").Sort(constOrgKey.At("berkshire").Eq()).Collect(ctx, client)
	if err != nil || len(orgs) != 1 {
		t.Errorf("berkshire in GSI1: %v, %v; want itself", orgs, err)
	}
	open, err := query.On(s.tickets, openTickets, keyfirst.None{}).Collect(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 2 || open[0].ID != "t3" || open[1].ID != "t1" {
		t.Errorf("the open tickets: %v, want t3 then t1", open)
	}
}

// A constant that DynamoDB would refuse as a key value is refused when
// the side is declared: the pattern keeps the error, and so does every
// entity that binds it.
func TestConstRefusedAtDeclaration(t *testing.T) {
	t.Parallel()
	pk := keyfirst.Composite("GSI1PK", constOrgKey)
	tests := []struct {
		name string
		err  error
	}{
		{"empty", keyfirst.OnIndex("GSI1", pk, keyfirst.Const("GSI1SK", "")).Err()},
		{"invalid UTF-8", keyfirst.OnIndex("GSI1", pk, keyfirst.Const("GSI1SK", "Ad\xffmin")).Err()},
		{"a partition of 2049 bytes", keyfirst.OnIndex("Open", keyfirst.Const("openBucket", strings.Repeat("x", 2049)), keyfirst.Str("openedAt")).Err()},
		{"a sort key of 1025 bytes", keyfirst.OnIndex("GSI1", pk, keyfirst.Const("GSI1SK", strings.Repeat("x", 1025))).Err()},
	}
	for _, tt := range tests {
		var pe *keyfirst.PatternError
		if !errors.As(tt.err, &pe) || pe.Problem != keyfirst.PatternSide {
			t.Errorf("%s: %v, want a PatternError (PatternSide)", tt.name, tt.err)
		}
	}
	// The limits themselves are accepted.
	for _, err := range []error{
		keyfirst.OnIndex("Open", keyfirst.Const("openBucket", strings.Repeat("x", 2048)), keyfirst.Str("openedAt")).Err(),
		keyfirst.OnIndex("GSI1", pk, keyfirst.Const("GSI1SK", strings.Repeat("x", 1024))).Err(),
	} {
		if err != nil {
			t.Errorf("a constant at DynamoDB's limit: %v", err)
		}
	}
	bad := keyfirst.OnIndex("GSI1", pk, keyfirst.Const("GSI1SK", ""))
	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "SaaS", Key: constOrgPK, GSIs: []keyfirst.Index{constOrgGSI1.Index()}}))
	_, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[constUser]{Type: "User",
		Keys: []keyfirst.Binding{constUserPK.Fields("Org", "Name"), keyfirst.If(bad.Fields("Org"), constUser.isAdmin)}})
	var ee *keyfirst.EntityError
	if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityPattern {
		t.Errorf("an entity binding a bad constant: %v, want an EntityError (EntityPattern)", err)
	}
	// Fields names the fields of the other side only.
	_, err = keyfirst.NewEntity(table, keyfirst.EntitySpec[constUser]{Type: "User",
		Keys: []keyfirst.Binding{constUserPK.Fields("Org", "Name"), keyfirst.If(adminsOf.Fields("Org", "Role"), constUser.isAdmin)}})
	if !errors.As(err, &ee) || ee.Problem != keyfirst.EntityBinding {
		t.Errorf("a field for the constant: %v, want an EntityError (EntityBinding)", err)
	}
}

// A sort key condition on a query of a pattern whose sort key is a
// constant is refused before any request: the query compares the
// constant itself. A typed condition of the constant side itself keeps
// that error.
func TestConstSortConditionRefused(t *testing.T) {
	t.Parallel()
	s := newConstSchema(t)
	ctx := context.Background()
	for name, q := range map[string]query.Query[constUser]{
		"SortAttr":  query.On(s.users, adminsOf, "berkshire").SortAttr(query.Attr("GSI1SK").Eq(query.S("Admin"))),
		"Sort":      query.On(s.users, adminsOf, "berkshire").Sort(constOrgKey.At("b").Eq()),
		"SortValue": query.On(s.users, adminsOf, "berkshire").SortValue(adminRole.Eq(keyfirst.None{})),
	} {
		_, err := q.Collect(ctx, nocalls.Client{T: t})
		var qe *query.Error
		if !errors.As(err, &qe) || qe.Problem != query.ProblemSortKey || qe.Attribute != "GSI1SK" {
			t.Errorf("%s on a constant sort key: %v, want a query.Error (ProblemSortKey) on GSI1SK", name, err)
		}
	}
}

// A constant side holds one literal value: the admins of an organization
// are in the overloaded GSI1 under GSI1SK = "Admin", members are not in
// it at all, and Fields names the partition's field alone.
func ExampleConst() {
	orgKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("ORG"))
	userKey := keys.NewKey1(keys.ID[string](), keys.WithPrefix("USER"))
	userByName := keyfirst.OnTable(keyfirst.Composite("PK", orgKey), keyfirst.Composite("SK", userKey))
	adminsOf := keyfirst.OnIndex("GSI1", keyfirst.Composite("GSI1PK", orgKey), keyfirst.Const("GSI1SK", "Admin"))

	table := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "SaaS", Key: userByName, GSIs: []keyfirst.Index{adminsOf.Index()}}))
	users := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[constUser]{Type: "User", Keys: []keyfirst.Binding{
		userByName.Fields("Org", "Name"),
		keyfirst.If(adminsOf.Fields("Org"), constUser.isAdmin),
	}}))
	for _, role := range []string{"Admin", "Member"} {
		item := keyfirst.Must(users.Item(constUser{Org: "berkshire", Name: "warren", Role: role}))
		_, in := item["GSI1SK"]
		fmt.Printf("%s: in GSI1 %t, GSI1PK %q, GSI1SK %q\n", role, in, avText(item["GSI1PK"]), avText(item["GSI1SK"]))
	}
	fmt.Println(adminsOf)
	// Output:
	// Admin: in GSI1 true, GSI1PK "ORG#berkshire", GSI1SK "Admin"
	// Member: in GSI1 false, GSI1PK "", GSI1SK ""
	// GSI1(GSI1PK = ORG#<id>; GSI1SK = "Admin")
}
