package stream

import (
	"reflect"
	"sync"
	"testing"

	"github.com/keyfirst/keyfirst"
)

// TestViewOfEachTable: the view is always its own table's, also when
// decodes of two tables of other schemas alternate, from several
// goroutines (run with -race): the view kept is replaced, never read as
// the other table's.
func TestViewOfEachTable(t *testing.T) {
	one := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "one", PartitionKey: keyfirst.StringAttr("PK"),
		GSIs: []keyfirst.Index{{Name: "by-a", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("a")}}}}))
	two := keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "two", PartitionKey: keyfirst.StringAttr("ID"),
		SortKey: keyfirst.NumberAttr("N"),
		GSIs: []keyfirst.Index{{Name: "by-b", PartitionKey: []keyfirst.Attribute{keyfirst.StringAttr("b")},
			SortKey: []keyfirst.Attribute{keyfirst.StringAttr("c")}}}}))
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				table := one
				if (i+g)%2 == 1 {
					table = two
				}
				v := viewOf(table)
				if v.table != table || !reflect.DeepEqual(v.primary, table.PrimaryKey().Attributes()) ||
					!reflect.DeepEqual(v.indexes, table.Indexes()) {
					errs <- "the view of " + table.Name() + " is another's"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
