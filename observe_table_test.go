package keyfirst_test

import (
	"slices"
	"testing"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/internal/observetest"
)

// The table-as-code calls send through the table's Observer too: Create's
// CreateTable, its DescribeTable polls and its UpdateTimeToLive; Check's
// DescribeTable and DescribeTimeToLive; AddIndex's UpdateTable and the
// polls of its wait.
func TestObserverSeesTableRequests(t *testing.T) {
	t.Parallel()
	client := integration.Client(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	rec := &observetest.Recorder{}
	table := unnamed(t, client, keyfirst.Must(keyfirst.NewTable(notesSpec()))).Observed(rec)
	if _, err := table.Create(ctx, client); err != nil {
		t.Fatal(err)
	}
	if _, err := table.Check(ctx, client); err != nil {
		t.Fatal(err)
	}
	ops := map[string][]string{}
	for _, x := range rec.Take() {
		r := x.Request
		if r.Table != table.Name() || !x.SameContext || x.Result.Err != nil || x.Result.Output == nil || r.Input == nil {
			t.Errorf("%s %s: %+v %+v", r.Operation, r.Call, r, x.Result)
		}
		ops[r.Call] = append(ops[r.Call], r.Operation)
	}
	create := ops["Table.Create"]
	if len(create) < 3 || create[0] != "CreateTable" || create[1] != "DescribeTable" || create[len(create)-1] != "UpdateTimeToLive" {
		t.Errorf("Create sent %q, want CreateTable, its DescribeTable polls, UpdateTimeToLive", create)
	}
	if check := ops["Table.Check"]; !slices.Equal(check, []string{"DescribeTable", "DescribeTimeToLive"}) {
		t.Errorf("Check sent %q, want DescribeTable, DescribeTimeToLive", check)
	}

	old := integration.TableOf(t, keyfirst.Must(keyfirst.NewTable(castWithoutIndex())))
	cast := keyfirst.Must(keyfirst.Must(keyfirst.NewTable(castWithIndex())).Named(old.Name())).Observed(rec)
	if err := cast.AddIndex(ctx, client, castByMovie); err != nil {
		t.Fatal(err)
	}
	var add []string
	for _, x := range rec.Take() {
		add = append(add, x.Request.Operation+" "+x.Request.Call)
	}
	if len(add) < 3 || add[0] != "DescribeTable Table.AddIndex" || add[1] != "UpdateTable Table.AddIndex" || add[2] != "DescribeTable Table.AddIndex" {
		t.Errorf("AddIndex sent %q, want DescribeTable, UpdateTable, the polls of its wait", add)
	}
}
