package keyfirst_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/nocalls"
)

// adoptedDoc is a versioned entity's item, written by another program
// without keyfirst's type (and at first without a version).
type adoptedDoc struct {
	ID      string `dynamodbav:"Id"`
	Text    string `dynamodbav:"Text"`
	Version int64  `dynamodbav:"Version"`
}

// skIn is an Adopt function: the keys whose sort key is one of sks.
func skIn(sks ...string) func(pk, sk types.AttributeValue) bool {
	return func(_, sk types.AttributeValue) bool {
		s, ok := sk.(*types.AttributeValueMemberS)
		return ok && slices.Contains(sks, s.Value)
	}
}

// adoptWriters is a table in DynamoDB Local with three entities whose
// keys are "U#1" / "<TYPE>#<id>" for NOTE and MEMO (unversioned) and
// "U#1" / "DOC#<id>" for DOC (versioned). NOTE adopts NOTE#1..NOTE#5 and
// NOTE#8, MEMO adopts NOTE#7 (a key of NOTE's that another entity
// claims) and NOTE#8 (claimed by both), DOC adopts DOC#1..DOC#5. No
// entity claims NOTE#6.
type adoptWriters struct {
	client *dynamodb.Client
	table  *keyfirst.Table
	notes  *keyfirst.Entity[adoptedNote]
	docs   *keyfirst.Entity[adoptedDoc]
}

func newAdoptWriters(t *testing.T) adoptWriters {
	t.Helper()
	table := integration.TableOf(t, keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "adoptw", Key: adoptByID})))
	note := func(typ string, adopt func(pk, sk types.AttributeValue) bool) *keyfirst.Entity[adoptedNote] {
		return keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[adoptedNote]{Type: typ, Adopt: adopt, Keys: []keyfirst.Binding{
			keyfirst.Func(adoptByID, func(n adoptedNote) (string, string, bool) { return "U#1", "NOTE#" + n.ID, true }).Reads("ID")}}))
	}
	notes := note("NOTE", skIn("NOTE#1", "NOTE#2", "NOTE#3", "NOTE#4", "NOTE#5", "NOTE#8"))
	note("MEMO", skIn("NOTE#7", "NOTE#8"))
	docs := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[adoptedDoc]{Type: "DOC", Version: "Version",
		Adopt: skIn("DOC#1", "DOC#2", "DOC#3", "DOC#4", "DOC#5"),
		Keys: []keyfirst.Binding{
			keyfirst.Func(adoptByID, func(d adoptedDoc) (string, string, bool) { return "U#1", "DOC#" + d.ID, true }).Reads("ID")}}))
	return adoptWriters{client: integration.Client(t), table: table, notes: notes, docs: docs}
}

// putUntyped writes, with the raw SDK, an item without the type: its
// sort key, its text and, when version > 0, a version attribute.
func (w adoptWriters) putUntyped(t *testing.T, sk, id string, version int) {
	t.Helper()
	item := map[string]types.AttributeValue{"PK": sAV("U#1"), "SK": sAV(sk), "Id": sAV(id), "Text": sAV("foreign")}
	if version > 0 {
		item["Version"] = &types.AttributeValueMemberN{Value: "3"}
	}
	putRaw(t, w.client, w.table.Name(), item)
}

func (w adoptWriters) stored(t *testing.T, sk string) map[string]types.AttributeValue {
	t.Helper()
	return rawItem(t, w.client, w.table.Name(), map[string]types.AttributeValue{"PK": sAV("U#1"), "SK": sAV(sk)})
}

// TestWriteAdopted: every write path takes over an untyped item that
// the entity alone adopts, writing its type (and, for a versioned
// entity, treating the missing version as 0); an untyped item that
// another entity claims, or none, is still refused, and a key claimed by
// two is a *ClaimError before any request.
func TestWriteAdopted(t *testing.T) {
	t.Parallel()
	w := newAdoptWriters(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	c := w.client
	typeAttr := w.table.TypeAttribute()
	type path struct {
		name    string
		sk, id  string
		write   func() error
		deletes bool
	}
	note := func(id string) adoptedNote { return adoptedNote{ID: id, Text: "mine"} }
	doc := func(id string, v int64) adoptedDoc { return adoptedDoc{ID: id, Text: "mine", Version: v} }
	for _, p := range []path{
		{name: "Put", sk: "NOTE#1", id: "1", write: func() error { return second(w.notes.Put(ctx, c, note("1"))) }},
		{name: "Replace", sk: "NOTE#2", id: "2", write: func() error { return second(w.notes.Replace(ctx, c, note("2"))) }},
		{name: "Modify", sk: "NOTE#3", id: "3", write: func() error {
			return second(w.notes.Modify(ctx, c, mustKey(t, w.notes, note("3")), func(n *adoptedNote) { n.Text = "mine" }))
		}},
		{name: "Update", sk: "NOTE#4", id: "4", write: func() error {
			return second(w.notes.Update(ctx, c, mustKey(t, w.notes, note("4")), keyfirst.Set("Text", "mine")))
		}},
		{name: "Delete", sk: "NOTE#5", id: "5", deletes: true, write: func() error { return w.notes.Delete(ctx, c, note("5")) }},
		{name: "versioned Put", sk: "DOC#1", id: "1", write: func() error { return second(w.docs.Put(ctx, c, doc("1", 0))) }},
		{name: "versioned Replace", sk: "DOC#2", id: "2", write: func() error { return second(w.docs.Replace(ctx, c, doc("2", 0))) }},
		{name: "versioned Modify", sk: "DOC#3", id: "3", write: func() error {
			return second(w.docs.Modify(ctx, c, mustKey(t, w.docs, doc("3", 0)), func(d *adoptedDoc) { d.Text = "mine" }))
		}},
		{name: "versioned Update", sk: "DOC#4", id: "4", write: func() error {
			return second(w.docs.Update(ctx, c, mustKey(t, w.docs, doc("4", 0)), keyfirst.Set("Text", "mine")))
		}},
		{name: "versioned Delete", sk: "DOC#5", id: "5", deletes: true, write: func() error { return w.docs.Delete(ctx, c, doc("5", 0)) }},
	} {
		t.Run(p.name, func(t *testing.T) {
			w.putUntyped(t, p.sk, p.id, 0)
			if err := p.write(); err != nil {
				t.Fatalf("write over the adopted item: %v", err)
			}
			got := w.stored(t, p.sk)
			switch {
			case p.deletes && got != nil:
				t.Fatalf("not deleted: %v", got)
			case p.deletes:
			case avText(got[typeAttr]) == "" || avText(got["Text"]) != "mine":
				t.Fatalf("stored %v: want the type and the new text", got)
			case got["Version"] != nil && avText(got["Version"]) != "1":
				t.Fatalf("version %s, want 1", avText(got["Version"]))
			}
		})
	}

	t.Run("refused", func(t *testing.T) {
		w.putUntyped(t, "NOTE#6", "6", 0) // no entity claims it
		w.putUntyped(t, "NOTE#7", "7", 0) // MEMO claims it
		w.putUntyped(t, "DOC#1", "1", 3)  // at version 3, not 0
		for name, err := range map[string]error{
			"Put, claimed by none":      second(w.notes.Put(ctx, c, note("6"))),
			"Replace, claimed by other": second(w.notes.Replace(ctx, c, note("7"))),
			"Update, claimed by other":  second(w.notes.Update(ctx, c, mustKey(t, w.notes, note("7")), keyfirst.Set("Text", "x"))),
			"Delete, claimed by none":   w.notes.Delete(ctx, c, note("6")),
		} {
			var ce *keyfirst.ConditionError
			if !errors.As(err, &ce) || !errors.Is(err, keyfirst.ErrWrongEntityType) {
				t.Errorf("%s: err = %v, want ErrWrongEntityType", name, err)
			}
		}
		var ce *keyfirst.ConditionError
		if err := second(w.docs.Put(ctx, c, doc("1", 0))); !errors.As(err, &ce) || !errors.Is(err, keyfirst.ErrVersionConflict) || ce.Actual != 3 {
			t.Errorf("versioned Put of 0 over version 3: %v", err)
		}
		if err := second(w.docs.Replace(ctx, c, doc("1", 3))); err != nil {
			t.Errorf("versioned Replace of 3 over an adopted version 3: %v", err)
		}
		if got := w.stored(t, "NOTE#6"); avText(got["Text"]) != "foreign" || got[typeAttr] != nil {
			t.Errorf("unclaimed item changed: %v", got)
		}
		w.putUntyped(t, "NOTE#3", "3", 0)
		if err := second(w.notes.Put(ctx, c, note("3"), keyfirst.CreateOnly())); !errors.Is(err, keyfirst.ErrAlreadyExists) {
			t.Errorf("CreateOnly over an adopted item: %v", err)
		}
	})

	t.Run("ambiguous", func(t *testing.T) {
		none := nocalls.Client{T: t}
		k := mustKey(t, w.notes, note("8"))
		for name, err := range map[string]error{
			"Put":     second(w.notes.Put(ctx, none, note("8"))),
			"Replace": second(w.notes.Replace(ctx, none, note("8"))),
			"Modify":  second(w.notes.Modify(ctx, untypedRead{none}, k, func(*adoptedNote) {})),
			"Update":  second(w.notes.Update(ctx, none, k, keyfirst.Set("Text", "x"))),
			"Delete":  w.notes.Delete(ctx, none, note("8")),
			"TransactPut": func() error {
				_, _, err := w.notes.TransactPut(note("8"), keyfirst.TransactOptions{})
				return err
			}(),
		} {
			var ce *keyfirst.ClaimError
			if !errors.As(err, &ce) || !errors.Is(err, keyfirst.ErrAmbiguousEntityType) || strings.Join(ce.Claims, ",") != "NOTE,MEMO" {
				t.Errorf("%s: err = %v, want a ClaimError of NOTE and MEMO", name, err)
			}
		}
	})
}

// untypedRead is a Modify client whose read returns an untyped item at
// a key that NOTE and MEMO both claim: Modify's read refuses it, and
// nothing is written. (A typed item there is Modify's to write: its
// guard compares the image read, type included.)
type untypedRead struct{ nocalls.Client }

func (untypedRead) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{Item: map[string]types.AttributeValue{"PK": sAV("U#1"), "SK": sAV("NOTE#8"), "Id": sAV("8"), "Text": sAV("t")}}, nil
}

// TestTransactAdopted: the transaction actions take over an untyped item
// the entity adopts, as the single writes do.
func TestTransactAdopted(t *testing.T) {
	t.Parallel()
	w := newAdoptWriters(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	for _, sk := range []string{"NOTE#1", "NOTE#2", "NOTE#4", "DOC#1", "DOC#2", "DOC#5"} {
		w.putUntyped(t, sk, sk[len(sk)-1:], 0)
	}
	note := adoptedNote{Text: "mine"}
	doc := adoptedDoc{Text: "mine"}
	with := func(id string) (adoptedNote, adoptedDoc) { n, d := note, doc; n.ID, d.ID = id, id; return n, d }
	n1, d1 := with("1")
	n2, d2 := with("2")
	n4, _ := with("4")
	_, d5 := with("5")
	var actions []keyfirst.TransactWrite
	add := func(a keyfirst.TransactWrite, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		actions = append(actions, a)
	}
	put := func(a keyfirst.TransactWrite, _ any, err error) (keyfirst.TransactWrite, error) { return a, err }
	add(put(w.notes.TransactPut(n1, keyfirst.TransactOptions{})))
	add(put(w.notes.TransactReplace(n2, keyfirst.TransactOptions{})))
	add(w.notes.TransactUpdate(mustKey(t, w.notes, n4), keyfirst.Set("Text", "mine")))
	add(put(w.docs.TransactPut(d1, keyfirst.TransactOptions{})))
	add(put(w.docs.TransactReplace(d2, keyfirst.TransactOptions{})))
	add(w.docs.TransactDelete(d5, keyfirst.TransactOptions{}))
	in := &dynamodb.TransactWriteItemsInput{}
	for _, a := range actions {
		in.TransactItems = append(in.TransactItems, a.Action())
	}
	if _, err := w.client.TransactWriteItems(ctx, in); err != nil {
		t.Fatalf("transaction over adopted items: %v", err)
	}
	for _, sk := range []string{"NOTE#1", "NOTE#2", "NOTE#4", "DOC#1", "DOC#2"} {
		if got := w.stored(t, sk); avText(got[w.table.TypeAttribute()]) == "" || avText(got["Text"]) != "mine" {
			t.Errorf("%s: stored %v", sk, got)
		}
	}
	if got := w.stored(t, "DOC#5"); got != nil {
		t.Errorf("DOC#5 not deleted: %v", got)
	}

	// An untyped item that another entity claims is refused in a transaction too.
	w.putUntyped(t, "NOTE#7", "7", 0)
	n7, _ := with("7")
	a, _, err := w.notes.TransactPut(n7, keyfirst.TransactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{a.Action()}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) || len(tce.CancellationReasons) != 1 || aws.ToString(tce.CancellationReasons[0].Code) != "ConditionalCheckFailed" {
		t.Fatalf("TransactPut over an item MEMO claims: %v", err)
	}
	if ce := a.Explain(tce.CancellationReasons[0].Item); !errors.Is(ce, keyfirst.ErrWrongEntityType) {
		t.Fatalf("Explain: %v", ce)
	}
}
