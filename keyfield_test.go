package keyfirst_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
)

// Seed 004's MoviesAndActors: the table's key attributes Actor and Movie
// are the fields of the same names, and the GSI MovieActors inverts them.
type castRole struct {
	Actor string `dynamodbav:"Actor"`
	Movie string `dynamodbav:"Movie"`
	Role  string `dynamodbav:"Role,omitempty"`
	Year  int    `dynamodbav:"Year"`
}

var (
	castByActor = keyfirst.OnTable(keyfirst.Str("Actor"), keyfirst.Str("Movie"))
	castByMovie = keyfirst.OnIndex("MovieActors", keyfirst.Str("Movie"), keyfirst.Str("Actor"))
)

// A number partition key and a binary sort key that are fields, on a
// versioned entity.
type sensorReading struct {
	Sensor  float64 `dynamodbav:"Sensor"`
	Data    []byte  `dynamodbav:"Data,omitempty"`
	Note    string  `dynamodbav:"Note,omitempty"`
	Version int64   `dynamodbav:"Version"`
}

var sensorByKey = keyfirst.OnTable(keyfirst.Num[float64]("Sensor"), keyfirst.Bin("Data"))

func castSpec() keyfirst.TableSpec {
	return keyfirst.TableSpec{Name: "MoviesAndActors", Key: castByActor, GSIs: []keyfirst.Index{castByMovie.Index()}}
}

func castEntity(t testing.TB, table *keyfirst.Table) *keyfirst.Entity[castRole] {
	t.Helper()
	roles, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[castRole]{Type: "Role", Keys: []keyfirst.Binding{
		castByActor.Fields("Actor", "Movie"), castByMovie.Fields("Movie", "Actor")}})
	if err != nil {
		t.Fatal(err)
	}
	return roles
}

func readingEntity(t testing.TB, table *keyfirst.Table) *keyfirst.Entity[sensorReading] {
	t.Helper()
	readings, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[sensorReading]{Type: "Reading", Version: "Version",
		Keys: []keyfirst.Binding{sensorByKey.Fields("Sensor", "Data")}})
	if err != nil {
		t.Fatal(err)
	}
	return readings
}

// localCast creates MoviesAndActors in DynamoDB Local for this test.
func localCast(t testing.TB) (*dynamodb.Client, *keyfirst.Entity[castRole]) {
	t.Helper()
	client, table := localTableOf(t, castSpec())
	return client, castEntity(t, table)
}

var woody = castRole{Actor: "Tom Hanks", Movie: "Toy Story", Role: "Woody", Year: 1995}

// The item stores each key attribute once, from its field: Item has
// exactly T's attributes and the type, and Put stores the same.
func TestTableKeyFieldIsStoredOnce(t *testing.T) {
	t.Parallel()
	client, roles := localCast(t)
	item := mustItem(t, roles, woody)
	if got, want := sortedNames(item), []string{"Actor", "Movie", "Role", "Year", "_type"}; !slices.Equal(got, want) {
		t.Fatalf("item attributes %v, want %v", got, want)
	}
	if sValue(t, item, "Actor") != "Tom Hanks" || sValue(t, item, "Movie") != "Toy Story" {
		t.Fatalf("key attributes %v", item)
	}
	mustPut(t, client, roles, woody)
	stored := rawItem(t, client, roles.Table().Name(), map[string]types.AttributeValue{"Actor": sAV("Tom Hanks"), "Movie": sAV("Toy Story")})
	if got := sortedNames(stored); !slices.Equal(got, sortedNames(item)) {
		t.Fatalf("stored %v, planned %v", got, sortedNames(item))
	}
	got, err := roles.Decode(stored)
	if err != nil || got != woody {
		t.Fatalf("Decode = %+v, %v; want %+v", got, err, woody)
	}
}

// Every path of an entity whose table key is its fields works on
// DynamoDB: no UpdateItem SETs or REMOVEs a key attribute (DynamoDB would
// refuse it: "This attribute is part of the key").
func TestTableKeyFieldOperations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client, roles := localCast(t)
	key := mustKey(t, roles, woody)
	if got := key.String(); got != `("Tom Hanks", "Toy Story")` {
		t.Fatalf("Key = %s", got)
	}

	if _, err := roles.Put(ctx, client, woody, keyfirst.CreateOnly()); err != nil {
		t.Fatal(err)
	}
	if _, err := roles.Put(ctx, client, woody, keyfirst.CreateOnly()); !errors.Is(err, keyfirst.ErrAlreadyExists) {
		t.Fatalf("second CreateOnly: %v, want ErrAlreadyExists", err)
	}
	replaced := woody
	replaced.Role = "" // omitempty: Replace removes it
	replaced.Year = 1996
	if _, err := roles.Replace(ctx, client, replaced); err != nil {
		t.Fatalf("Replace: %v", err)
	}
	if got, err := roles.Get(ctx, client, key, keyfirst.ConsistentRead()); err != nil || got != replaced {
		t.Fatalf("Get after Replace = %+v, %v; want %+v", got, err, replaced)
	}
	modified, err := roles.Modify(ctx, client, key, func(r *castRole) { r.Role = "Sheriff Woody" })
	if err != nil || modified.Role != "Sheriff Woody" || modified.Actor != "Tom Hanks" {
		t.Fatalf("Modify = %+v, %v", modified, err)
	}
	_, err = roles.Modify(ctx, client, key, func(r *castRole) { r.Movie = "Toy Story 2" })
	var kc *keyfirst.KeyChangedError
	if !errors.Is(err, keyfirst.ErrKeyChanged) || !errors.As(err, &kc) {
		t.Fatalf("Modify of the key field: %v, want ErrKeyChanged", err)
	}

	// Refresh: a stored item as written is unchanged; one whose field
	// another program changed is refreshed without touching the key.
	stored := rawItem(t, client, roles.Table().Name(), map[string]types.AttributeValue{"Actor": sAV("Tom Hanks"), "Movie": sAV("Toy Story")})
	if res, err := roles.Refresh(ctx, client, stored); err != nil || res.Outcome != keyfirst.RefreshUnchanged {
		t.Fatalf("Refresh of the stored item = %+v, %v", res, err)
	}
	stored["Stale"] = sAV("x")
	delete(stored, "Year")
	putRaw(t, client, roles.Table().Name(), stored)
	res, err := roles.Refresh(ctx, client, stored)
	if err != nil || res.Outcome != keyfirst.RefreshChanged || !slices.Equal(res.Set, []string{"Year"}) || len(res.Remove) != 0 {
		t.Fatalf("Refresh = %+v, %v; want Year set", res, err)
	}

	// Transactions: a put, a replace, a check and a delete, and a get.
	buzz := castRole{Actor: "Tim Allen", Movie: "Toy Story", Role: "Buzz Lightyear", Year: 1995}
	put, _, err := roles.TransactPut(buzz, keyfirst.TransactOptions{CreateOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	current, err := roles.Get(ctx, client, key, keyfirst.ConsistentRead())
	if err != nil {
		t.Fatal(err)
	}
	current.Year = 1999
	replace, _, err := roles.TransactReplace(current, keyfirst.TransactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	transact(t, client, put, replace)
	check, err := roles.TransactCheck(mustKey(t, roles, buzz), keyfirst.TransactOptions{Condition: keyfirst.Field("Role").Exists()})
	if err != nil {
		t.Fatal(err)
	}
	del, err := roles.TransactDelete(current, keyfirst.TransactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	get, _, err := roles.TransactGet(mustKey(t, roles, buzz))
	if err != nil {
		t.Fatal(err)
	}
	got, err := client.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{get}})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := roles.Decode(got.Responses[0].Item); err != nil || r != buzz {
		t.Fatalf("TransactGet = %+v, %v; want %+v", r, err, buzz)
	}
	transact(t, client, check, del)
	if _, err := roles.Get(ctx, client, key); !errors.Is(err, keyfirst.ErrNotFound) {
		t.Fatalf("Get after TransactDelete: %v, want ErrNotFound", err)
	}

	// Batches: a load of roles, read back, then deleted.
	cast := []castRole{woody, buzz, {Actor: "Tom Hanks", Movie: "Cast Away", Role: "Chuck Noland", Year: 2000}}
	var reqs []keyfirst.WriteRequest
	var keys []keyfirst.Key[castRole]
	for _, r := range cast {
		reqs = append(reqs, roles.PutRequest(r))
		keys = append(keys, mustKey(t, roles, r))
	}
	if err := roles.Table().BatchWrite(ctx, client, reqs); err != nil {
		t.Fatal(err)
	}
	read, err := roles.BatchGet(ctx, client, keys, keyfirst.ConsistentRead())
	if err != nil {
		t.Fatal(err)
	}
	if !sameRoles(read, cast) {
		t.Fatalf("BatchGet = %+v, want %+v", read, cast)
	}
	if err := roles.Delete(ctx, client, woody); err != nil {
		t.Fatal(err)
	}
	if err := roles.Table().BatchWrite(ctx, client, []keyfirst.WriteRequest{roles.DeleteRequest(keys[1]), roles.DeleteRequest(keys[2])}); err != nil {
		t.Fatal(err)
	}
	if read, err := roles.BatchGet(ctx, client, keys, keyfirst.ConsistentRead()); err != nil || len(read) != 0 {
		t.Fatalf("BatchGet after the deletes = %+v, %v", read, err)
	}
}

// transact sends the actions in one TransactWriteItems.
func transact(t *testing.T, client *dynamodb.Client, actions ...keyfirst.TransactWrite) {
	t.Helper()
	in := &dynamodb.TransactWriteItemsInput{}
	for _, a := range actions {
		in.TransactItems = append(in.TransactItems, a.Action())
	}
	if _, err := client.TransactWriteItems(context.Background(), in); err != nil {
		t.Fatal(err)
	}
}

func sameRoles(a, b []castRole) bool {
	cmp := func(x, y castRole) int { return strings.Compare(x.Actor+"/"+x.Movie, y.Actor+"/"+y.Movie) }
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, cmp)
	slices.SortFunc(b, cmp)
	return slices.Equal(a, b)
}

// A number key that is a field is stored in DynamoDB's canonical form,
// once; a versioned entity's Put, Replace and Modify work with it.
func TestTableKeyFieldNumberAndBinary(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client, table := localTableOf(t, keyfirst.TableSpec{Name: "readings", Key: sensorByKey})
	readings := readingEntity(t, table)
	r := sensorReading{Sensor: 1e21, Data: []byte{0, 1}, Note: "n"}
	item := mustItem(t, readings, r)
	if got := item["Sensor"].(*types.AttributeValueMemberN).Value; got != "1000000000000000000000" {
		t.Fatalf("Sensor stored as %q, want the canonical 1000000000000000000000", got)
	}
	r = mustPut(t, client, readings, r)
	if r.Version != 1 {
		t.Fatalf("version %d after the first Put", r.Version)
	}
	r.Note = "m"
	if r, _ = readings.Put(ctx, client, r); r.Version != 2 {
		t.Fatalf("versioned Put: version %d", r.Version)
	}
	r.Note = ""
	r, err := readings.Replace(ctx, client, r)
	if err != nil || r.Version != 3 {
		t.Fatalf("Replace = %+v, %v", r, err)
	}
	key := mustKey(t, readings, r)
	r, err = readings.Modify(ctx, client, key, func(v *sensorReading) { v.Note = "z" })
	if err != nil || r.Version != 4 {
		t.Fatalf("Modify = %+v, %v", r, err)
	}
	if _, err := readings.Modify(ctx, client, key, func(v *sensorReading) { v.Sensor = 2 }); !errors.Is(err, keyfirst.ErrKeyChanged) {
		t.Fatalf("Modify of the key: %v, want ErrKeyChanged", err)
	}
	got, err := readings.Get(ctx, client, key, keyfirst.ConsistentRead())
	if err != nil || got.Sensor != 1e21 || string(got.Data) != "\x00\x01" || got.Note != "z" || got.Version != 4 {
		t.Fatalf("Get = %+v, %v", got, err)
	}
}

// A bad key field is refused before any request, with the error of the
// same value in a derived key (the twin entities store the fields under
// other names, so their keys are derived from them), on every path that
// writes or keys an item.
func TestTableKeyFieldBadValues(t *testing.T) {
	t.Parallel()
	castTable, err := keyfirst.NewTable(castSpec())
	if err != nil {
		t.Fatal(err)
	}
	roles := castEntity(t, castTable)
	rolesDerived := keyfirst.Must(keyfirst.NewEntity(castTable, keyfirst.EntitySpec[castRoleDerived]{Type: "RoleDerived", Keys: []keyfirst.Binding{
		castByActor.Fields("Actor", "Movie"), castByMovie.Fields("Movie", "Actor")}}))
	readingTable, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "readings", Key: sensorByKey})
	if err != nil {
		t.Fatal(err)
	}
	// Unversioned, so that BatchWrite takes them.
	readings := keyfirst.Must(keyfirst.NewEntity(readingTable, keyfirst.EntitySpec[sensorReading]{Type: "Reading",
		Keys: []keyfirst.Binding{sensorByKey.Fields("Sensor", "Data")}}))
	readingsDerived := keyfirst.Must(keyfirst.NewEntity(readingTable, keyfirst.EntitySpec[sensorReadingDerived]{Type: "ReadingDerived",
		Keys: []keyfirst.Binding{sensorByKey.Fields("Sensor", "Data")}}))
	ctx := context.Background()
	client := noCalls{T: t}
	type badCase struct {
		name           string
		field, derived func(path string) error
		problem        keyfirst.ItemProblem
		attr           string
	}
	role := func(name string, edit func(*castRole), problem keyfirst.ItemProblem, attr string) badCase {
		r := woody
		edit(&r)
		return badCase{name, castWrite(ctx, client, roles, r), castWrite(ctx, client, rolesDerived, castRoleDerived(r)), problem, attr}
	}
	reading := func(name string, edit func(*sensorReading), problem keyfirst.ItemProblem, attr string) badCase {
		r := sensorReading{Sensor: 1, Data: []byte{1}}
		edit(&r)
		return badCase{name, castWrite(ctx, client, readings, r), castWrite(ctx, client, readingsDerived, sensorReadingDerived(r)), problem, attr}
	}
	tests := []badCase{
		role("empty partition key", func(r *castRole) { r.Actor = "" }, keyfirst.ItemEmptyKey, "Actor"),
		role("empty sort key", func(r *castRole) { r.Movie = "" }, keyfirst.ItemEmptyKey, "Movie"),
		role("partition key over 2048 bytes", func(r *castRole) { r.Actor = strings.Repeat("a", 2049) }, keyfirst.ItemKeyTooLong, "Actor"),
		role("sort key over 1024 bytes", func(r *castRole) { r.Movie = strings.Repeat("m", 1025) }, keyfirst.ItemKeyTooLong, "Movie"),
		role("invalid UTF-8", func(r *castRole) { r.Actor = "Tom\xffHanks" }, keyfirst.ItemBadString, "Actor"),
		// A Num side cannot format NaN or an infinity: its error, as
		// for every Num key.
		reading("NaN number key", func(r *sensorReading) { r.Sensor = math.NaN() }, keyfirst.ItemDerive, "Sensor"),
		reading("infinite number key", func(r *sensorReading) { r.Sensor = math.Inf(1) }, keyfirst.ItemDerive, "Sensor"),
		reading("number key below 1E-130", func(r *sensorReading) { r.Sensor = 1e-200 }, keyfirst.ItemBadNumber, "Sensor"),
		reading("number key above 1E+126", func(r *sensorReading) { r.Sensor = 1e200 }, keyfirst.ItemBadNumber, "Sensor"),
		reading("omitempty binary key left empty", func(r *sensorReading) { r.Data = nil }, keyfirst.ItemEmptyKey, "Data"),
		reading("binary sort key over 1024 bytes", func(r *sensorReading) { r.Data = make([]byte, 1025) }, keyfirst.ItemKeyTooLong, "Data"),
	}
	for _, tt := range tests {
		for _, path := range keyFieldPaths {
			t.Run(tt.name+"/"+path, func(t *testing.T) {
				for kind, write := range map[string]func(string) error{"field": tt.field, "derived": tt.derived} {
					err := write(path)
					var ie *keyfirst.ItemError
					if !errors.As(err, &ie) || !errors.Is(err, keyfirst.ErrInvalidItem) {
						t.Fatalf("%s key: err = %v, want an *ItemError", kind, err)
					}
					if ie.Problem != tt.problem || ie.Index != "" || ie.Attribute != tt.attr {
						t.Fatalf("%s key: got %q index %q attribute %q, want %q on the table's %q (%v)", kind, ie.Problem, ie.Index, ie.Attribute, tt.problem, tt.attr, err)
					}
				}
			})
		}
	}
}

// The twins of castRole and sensorReading whose fields are stored under
// names of their own: their table keys are derived from the fields.
type (
	castRoleDerived struct {
		Actor string `dynamodbav:"ActorName"`
		Movie string `dynamodbav:"MovieTitle"`
		Role  string `dynamodbav:"Role,omitempty"`
		Year  int    `dynamodbav:"Year"`
	}
	sensorReadingDerived struct {
		Sensor  float64 `dynamodbav:"SensorValue"`
		Data    []byte  `dynamodbav:"DataValue,omitempty"`
		Note    string  `dynamodbav:"Note,omitempty"`
		Version int64   `dynamodbav:"Version"`
	}
)

// keyFieldPaths are the operations castWrite tries.
var keyFieldPaths = []string{"Key", "Item", "Put", "CreateOnly", "Replace", "Delete", "BatchWrite", "TransactPut", "TransactReplace", "TransactDelete"}

// castWrite returns the write of v by e on the path named, with a client
// that fails the test on any request.
func castWrite[T any](ctx context.Context, client noCalls, e *keyfirst.Entity[T], v T) func(path string) error {
	return func(path string) error {
		var err error
		switch path {
		case "Key":
			_, err = e.Key(v)
		case "Item":
			_, err = e.Item(v)
		case "Put":
			_, err = e.Put(ctx, client, v)
		case "CreateOnly":
			_, err = e.Put(ctx, client, v, keyfirst.CreateOnly())
		case "Replace":
			_, err = e.Replace(ctx, client, v)
		case "Delete":
			err = e.Delete(ctx, client, v)
		case "BatchWrite":
			err = e.Table().BatchWrite(ctx, client, []keyfirst.WriteRequest{e.PutRequest(v)})
		case "TransactPut":
			_, _, err = e.TransactPut(v, keyfirst.TransactOptions{})
		case "TransactReplace":
			_, _, err = e.TransactReplace(v, keyfirst.TransactOptions{})
		case "TransactDelete":
			_, err = e.TransactDelete(v, keyfirst.TransactOptions{})
		}
		return err
	}
}

// Only a Str, Num or Bin side bound to the field of the key attribute's
// own name makes the field the key: every other field named like a table
// key attribute is still refused.
func TestTableKeyFieldOtherCollisionsRefused(t *testing.T) {
	t.Parallel()
	table, err := keyfirst.NewTable(castSpec())
	if err != nil {
		t.Fatal(err)
	}
	type other struct {
		Name  string `dynamodbav:"Name"`
		Actor string `dynamodbav:"Actor"`
		Movie string `dynamodbav:"Movie"`
	}
	type asString struct {
		Sensor int    `dynamodbav:"Sensor,string"`
		Data   []byte `dynamodbav:"Data"`
	}
	actorKey := keyfirst.OnTable(keyfirst.Composite("Actor", keys.NewKey1(keys.ID[string](), keys.WithPrefix("ACTOR"))), keyfirst.Str("Movie"))
	readingTable, err := keyfirst.NewTable(keyfirst.TableSpec{Name: "readings", Key: sensorByKey})
	if err != nil {
		t.Fatal(err)
	}
	for name, build := range map[string]func() error{
		"a Composite key over the field": func() error {
			_, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[other]{Type: "O", Keys: []keyfirst.Binding{actorKey.Fields("Actor", "Movie")}})
			return err
		},
		"a Str side bound to another field": func() error {
			_, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[other]{Type: "O", Keys: []keyfirst.Binding{castByActor.Fields("Name", "Movie")}})
			return err
		},
		"a Func binding": func() error {
			_, err := keyfirst.NewEntity(table, keyfirst.EntitySpec[other]{Type: "O", Keys: []keyfirst.Binding{
				keyfirst.Func(castByActor, func(o other) (string, string, bool) { return o.Actor, o.Movie, true })}})
			return err
		},
		"a number field stored as a string": func() error {
			_, err := keyfirst.NewEntity(readingTable, keyfirst.EntitySpec[asString]{Type: "O", Keys: []keyfirst.Binding{
				keyfirst.OnTable(keyfirst.Num[int]("Sensor"), keyfirst.Bin("Data")).Fields("Sensor", "Data")}})
			return err
		},
	} {
		var ee *keyfirst.EntityError
		if err := build(); !errors.As(err, &ee) || ee.Problem != keyfirst.EntityFieldCollision {
			t.Errorf("%s: %v, want EntityFieldCollision", name, err)
		}
	}
}
