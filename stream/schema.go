package stream

import (
	"sync/atomic"

	"github.com/keyfirst/keyfirst"
)

// schemaView is what a decode reads of its table's schema: the primary
// key's attributes and the secondary indexes, which a table never changes
// once made. Read only: every decode of the table shares it.
type schemaView struct {
	table   *keyfirst.Table
	primary []keyfirst.Attribute
	indexes []keyfirst.KeySchema
}

// lastView is the view of the table decoded last, so that a consumer of
// one table copies its schema once rather than on every record. It keeps
// that one table alive; a decode of another replaces it.
var lastView atomic.Pointer[schemaView]

// viewOf returns the schema view of table.
func viewOf(table *keyfirst.Table) *schemaView {
	if v := lastView.Load(); v != nil && v.table == table {
		return v
	}
	v := &schemaView{table: table, primary: table.PrimaryKey().Attributes(), indexes: table.Indexes()}
	lastView.Store(v)
	return v
}
