package keyfirst

import (
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/keys"
)

// DynamoDB's limits that the schema checks.
const (
	MaxGSIs                = 20  // global secondary indexes per table (the default quota)
	MaxLSIs                = 5   // local secondary indexes per table
	MaxKeyAttributes       = 4   // attributes per side of a multi-attribute GSI key
	MaxProjectedAttributes = 100 // NonKeyAttributes summed over all indexes

	maxNameLen               = 255
	minTableOrIndexNameLen   = 3
	maxKeyAttributeNameBytes = 255
)

// DefaultTypeAttribute is the attribute that stores each item's entity
// type when [TableSpec.TypeAttribute] is empty.
const DefaultTypeAttribute = "_type"

// Attribute is a key attribute: its name and its scalar type (S, N or B).
type Attribute struct {
	Name string
	Type types.ScalarAttributeType
}

// StringAttr is a key attribute of type S.
func StringAttr(name string) Attribute { return Attribute{name, types.ScalarAttributeTypeS} }

// NumberAttr is a key attribute of type N.
func NumberAttr(name string) Attribute { return Attribute{name, types.ScalarAttributeTypeN} }

// BinaryAttr is a key attribute of type B.
func BinaryAttr(name string) Attribute { return Attribute{name, types.ScalarAttributeTypeB} }

// Projection says which attributes an index copies. The zero value projects
// ALL attributes.
type Projection struct {
	// Type is ALL (the default when empty), KEYS_ONLY or INCLUDE.
	Type types.ProjectionType
	// NonKeyAttributes lists the attributes INCLUDE copies besides the
	// keys. The table's entity-type attribute is always added, so that a
	// query of the index can decode mixed item collections.
	NonKeyAttributes []string
}

// KeysOnly projects only the table's and the index's key attributes.
func KeysOnly() Projection { return Projection{Type: types.ProjectionTypeKeysOnly} }

// Include projects the keys and the attributes named (plus the entity-type
// attribute).
func Include(attributes ...string) Projection {
	return Projection{Type: types.ProjectionTypeInclude, NonKeyAttributes: slices.Clone(attributes)}
}

// Index describes a secondary index.
//
// A global secondary index (GSI) has 1 to 4 partition key attributes and 0 to
// 4 sort key attributes: one attribute each for a classic index (a
// concatenated composite value built with the keys package) or several for a
// native multi-attribute key (DynamoDB compares them left to right). A local
// secondary index (LSI) has the table's partition key (leave PartitionKey
// empty or repeat the table's) and exactly one sort key attribute.
type Index struct {
	Name         string
	PartitionKey []Attribute
	SortKey      []Attribute
	Projection   Projection
	// Scannable declares an index that holds one entity type by design (a
	// sparse index: seed 000's form 2, where only Customer items carry
	// CustomerIndexId), the only kind the query package lets callers Scan,
	// so that a Scan of it returns that type only. [NewEntity] keeps it so:
	// once an entity type can be in the index (it derives the index's key
	// attributes, or has them all as fields or table keys), a second one
	// that can is refused with [EntityScannableShared].
	Scannable bool

	err error // from Pattern.Index
}

// PatternRef is any [Pattern], whatever its key types.
type PatternRef interface{ ID() PatternID }

// TableSpec describes a table. The zero values of the optional fields are
// valid: no sort key, no indexes, on-demand billing, entity-type attribute
// "_type".
type TableSpec struct {
	Name string
	// Key, when set, gives the table's key attributes from an [OnTable]
	// pattern, instead of PartitionKey and SortKey.
	Key PatternRef
	// PartitionKey is the table's partition key attribute (unless Key
	// gives it).
	PartitionKey Attribute
	// SortKey is the table's sort key; the zero Attribute means none
	// (unless Key gives it).
	SortKey Attribute
	GSIs    []Index
	LSIs    []Index
	// BillingMode is PAY_PER_REQUEST (the default when empty) or
	// PROVISIONED.
	BillingMode types.BillingMode
	// Throughput is required with PROVISIONED and refused otherwise; it
	// applies to the table and to every GSI.
	Throughput *types.ProvisionedThroughput
	// TypeAttribute names the attribute that stores each item's entity
	// type (default "_type").
	TypeAttribute string
	// Stream is the view of the table's DynamoDB stream (NEW_AND_OLD_IMAGES,
	// NEW_IMAGE, OLD_IMAGE or KEYS_ONLY); empty declares no stream.
	// [Table.CreateTableInput] enables it, and [Table.Check] reports a
	// table whose stream is missing or carries less as an error: the
	// stream package needs NEW_AND_OLD_IMAGES for changes with both images.
	Stream types.StreamViewType
	// TimeToLive names the attribute of DynamoDB's time to live: an
	// item whose attribute holds a Number of epoch seconds in the past
	// is deleted by DynamoDB, up to a few days later. [Table.Create]
	// enables it and [Table.Check] reports a table where it is not
	// enabled on that attribute. An entity stores its expiry there
	// ([EntitySpec.Expires]). Empty: no time to live.
	TimeToLive string
}

// IndexKind tells the table's own key from its global and local indexes.
type IndexKind uint8

// The kinds of [KeySchema].
const (
	PrimaryIndex IndexKind = iota // the table's primary key
	GlobalIndex                   // a global secondary index
	LocalIndex                    // a local secondary index
)

// String returns "table", "GSI" or "LSI".
func (k IndexKind) String() string {
	switch k {
	case PrimaryIndex:
		return "table"
	case GlobalIndex:
		return "GSI"
	case LocalIndex:
		return "LSI"
	}
	return fmt.Sprintf("IndexKind(%d)", uint8(k))
}

// KeySchema is the resolved key of the table or of one of its indexes: what
// a query needs to build its key condition.
type KeySchema struct {
	// IndexName is empty for the table's primary key.
	IndexName    string
	Kind         IndexKind
	PartitionKey []Attribute
	SortKey      []Attribute
	// Projection of a secondary index (ALL for the table).
	Projection Projection
	// Scannable as declared in [Index] (false for the table).
	Scannable bool
}

// ConsistentReadAllowed reports whether strongly consistent reads are
// possible: on the table and on LSIs, never on a GSI.
func (k KeySchema) ConsistentReadAllowed() bool { return k.Kind != GlobalIndex }

// MultiAttribute reports a native multi-attribute key (more than one
// attribute on a side).
func (k KeySchema) MultiAttribute() bool { return len(k.PartitionKey) > 1 || len(k.SortKey) > 1 }

// Attributes returns the key attributes, partition side first, in order.
func (k KeySchema) Attributes() []Attribute {
	return append(slices.Clone(k.PartitionKey), k.SortKey...)
}

// Contains reports whether an item with these attributes is in the index:
// DynamoDB indexes exactly the items that carry every key attribute of the
// index (a sparse index holds the others out). For the table's own key it
// reports whether the item has its primary key.
func (k KeySchema) Contains(item map[string]types.AttributeValue) bool {
	for _, side := range [][]Attribute{k.PartitionKey, k.SortKey} {
		for _, a := range side {
			if _, ok := item[a.Name]; !ok {
				return false
			}
		}
	}
	return true
}

func (k KeySchema) clone() KeySchema {
	k.PartitionKey = slices.Clone(k.PartitionKey)
	k.SortKey = slices.Clone(k.SortKey)
	k.Projection.NonKeyAttributes = slices.Clone(k.Projection.NonKeyAttributes)
	return k
}

// has reports whether name is one of the key's attributes.
func (k KeySchema) has(name string) bool {
	for _, a := range k.PartitionKey {
		if a.Name == name {
			return true
		}
	}
	for _, a := range k.SortKey {
		if a.Name == name {
			return true
		}
	}
	return false
}

// Table is a validated table description and the registry of the entity
// types that live in it, bound to a table name. Build it with [NewTable];
// bind the same description to another name with [Table.Named]. It is safe
// for concurrent use.
type Table struct {
	name string
	// nameText is name as the requests of the table's entities carry it,
	// made once and shared by them, which only read it.
	nameText *string
	observer Observer // see Table.Observed
	*schema
}

// tableName is the table's name as a request's TableName: shared, never
// to be modified.
func (t *Table) tableName() *string {
	if t.nameText != nil {
		return t.nameText
	}
	return aws.String(t.name)
}

// schema is what every binding of a table shares: the description and the
// registry of its entity types.
type schema struct {
	typeAttr    string
	billing     types.BillingMode
	stream      types.StreamViewType
	ttl         string // TableSpec.TimeToLive
	throughput  *types.ProvisionedThroughput
	primary     KeySchema
	indexes     []KeySchema // GSIs then LSIs, in declaration order
	byName      map[string]int
	attrTypes   map[string]types.ScalarAttributeType
	attrOrder   []string // key attributes in first-use order
	mu          sync.RWMutex
	entities    map[string]registered
	entityOrder []string
	// patterns are the patterns bound by the registered entities;
	// sortDefs the keys definitions they store in each index's sort key.
	patterns map[*pattern]bool
	sortDefs map[string][]keys.DefID
}

// NewTable validates spec and returns the table it describes. It refuses,
// with a [*SchemaError], what DynamoDB would refuse at CreateTable and what
// keyfirst cannot use: invalid names, duplicate index names, more than 20
// GSIs or 5 LSIs, a key side with too many attributes (4 on a GSI, 1 on the
// table and on LSIs), an LSI whose partition key is not the table's, an
// attribute used with two types, invalid projections and billing.
func NewTable(spec TableSpec) (*Table, error) {
	v := schemaValidator{table: spec.Name, types: map[string]types.ScalarAttributeType{}}
	t := &Table{name: spec.Name, nameText: aws.String(spec.Name), schema: &schema{
		typeAttr: spec.TypeAttribute,
		billing:  spec.BillingMode,
		stream:   spec.Stream,
		ttl:      spec.TimeToLive,
		byName:   map[string]int{},
		entities: map[string]registered{},
		patterns: map[*pattern]bool{},
		sortDefs: map[string][]keys.DefID{},
	}}
	if t.typeAttr == "" {
		t.typeAttr = DefaultTypeAttribute
	}
	if t.billing == "" {
		t.billing = types.BillingModePayPerRequest
	}
	if err := v.name("", spec.Name, "table"); err != nil {
		return nil, err
	}
	if err := v.attributeName("", t.typeAttr); err != nil {
		return nil, err
	}
	if t.ttl != "" {
		if err := v.attributeName("", t.ttl); err != nil {
			return nil, err
		}
	}
	if err := v.billing(t.billing, spec.Throughput); err != nil {
		return nil, err
	}
	t.throughput = copyThroughput(spec.Throughput)
	if t.stream != "" && !slices.Contains(types.StreamViewType("").Values(), t.stream) {
		return nil, v.fail("", "", SchemaStream, fmt.Sprintf("stream view %q; use one of %v, or none", t.stream, types.StreamViewType("").Values()))
	}

	if spec.Key != nil {
		if err := v.keyFromPattern(&spec); err != nil {
			return nil, err
		}
	}
	t.primary = KeySchema{Kind: PrimaryIndex, PartitionKey: []Attribute{spec.PartitionKey}, Projection: Projection{Type: types.ProjectionTypeAll}}
	if spec.SortKey != (Attribute{}) {
		t.primary.SortKey = []Attribute{spec.SortKey}
	}
	if err := v.key("", t.primary, 1, 0); err != nil {
		return nil, err
	}

	if len(spec.GSIs) > MaxGSIs {
		return nil, v.fail("", "", SchemaTooManyGSIs, fmt.Sprintf("%d GSIs, at most %d", len(spec.GSIs), MaxGSIs))
	}
	if len(spec.LSIs) > MaxLSIs {
		return nil, v.fail("", "", SchemaTooManyLSIs, fmt.Sprintf("%d LSIs, at most %d", len(spec.LSIs), MaxLSIs))
	}
	projected := 0
	add := func(ix Index, kind IndexKind) error {
		if ix.err != nil {
			return v.fail("", "", SchemaPattern, ix.err.Error())
		}
		if err := v.name(ix.Name, ix.Name, "index"); err != nil {
			return err
		}
		if _, dup := t.byName[ix.Name]; dup {
			return v.fail(ix.Name, "", SchemaDuplicateIndex, "index names must be unique across GSIs and LSIs")
		}
		ks := KeySchema{
			IndexName:    ix.Name,
			Kind:         kind,
			PartitionKey: slices.Clone(ix.PartitionKey),
			SortKey:      slices.Clone(ix.SortKey),
			Scannable:    ix.Scannable,
		}
		maxSide, minSort := MaxKeyAttributes, 0
		if kind == LocalIndex {
			if t.primary.SortKey == nil {
				return v.fail(ix.Name, "", SchemaLSIWithoutSortKey, "a local index needs a table with a sort key")
			}
			if len(ks.PartitionKey) == 0 {
				ks.PartitionKey = slices.Clone(t.primary.PartitionKey)
			}
			if !slices.Equal(ks.PartitionKey, t.primary.PartitionKey) {
				return v.fail(ix.Name, "", SchemaLSIPartitionKey,
					fmt.Sprintf("got %v, the table's is %v; leave it empty", ks.PartitionKey, t.primary.PartitionKey))
			}
			maxSide, minSort = 1, 1
		}
		if err := v.key(ix.Name, ks, maxSide, minSort); err != nil {
			return err
		}
		p, err := v.projection(ix.Name, ix.Projection, ks, t.primary, t.typeAttr)
		if err != nil {
			return err
		}
		ks.Projection = p
		projected += len(p.NonKeyAttributes)
		t.byName[ix.Name] = len(t.indexes)
		t.indexes = append(t.indexes, ks)
		return nil
	}
	for _, ix := range spec.GSIs {
		if err := add(ix, GlobalIndex); err != nil {
			return nil, err
		}
	}
	for _, ix := range spec.LSIs {
		if err := add(ix, LocalIndex); err != nil {
			return nil, err
		}
	}
	if projected > MaxProjectedAttributes {
		return nil, v.fail("", "", SchemaProjection,
			fmt.Sprintf("%d projected non-key attributes over all indexes (the entity-type attribute included), at most %d",
				projected, MaxProjectedAttributes))
	}
	if ty, ok := v.types[t.typeAttr]; ok && ty != types.ScalarAttributeTypeS {
		return nil, v.fail("", t.typeAttr, SchemaTypeConflict, "the entity-type attribute holds strings; a key on it must be of type S")
	}
	t.attrTypes = v.types
	t.attrOrder = v.order
	return t, nil
}

// Name returns the table name.
func (t *Table) Name() string { return t.name }

// Named returns the table's description bound to the table called name:
// one schema declared once (usually at package level, with its entities,
// patterns and rules), many physical tables (orders-prod, orders-staging,
// a fresh table per test). The result shares everything with t but the
// name (and its [Observer], see [Table.Observed]): the entity types
// registered on either are registered on both.
// Bind an entity to it with [Entity.In]; a query of the bound entity or
// table reads the bound table, and a cursor made on one table is refused
// on another. Both stay safe for concurrent use. A name DynamoDB would
// refuse is a [*SchemaError] ([SchemaName]).
//
//	table, err := shop.Table.Named(os.Getenv("ORDERS_TABLE"))
func (t *Table) Named(name string) (*Table, error) {
	v := schemaValidator{table: name, types: map[string]types.ScalarAttributeType{}}
	if t == nil || t.schema == nil {
		return nil, v.fail("", "", SchemaName, "Named of a nil *Table: build tables with NewTable")
	}
	if err := v.name("", name, "table"); err != nil {
		return nil, err
	}
	return &Table{name: name, nameText: aws.String(name), observer: t.observer, schema: t.schema}, nil
}

// SameSchema reports whether t and other are bindings of one description
// ([Table.Named]).
func (t *Table) SameSchema(other *Table) bool { return other != nil && t.schema == other.schema }

// TypeAttribute returns the name of the attribute that stores each item's
// entity type.
func (t *Table) TypeAttribute() string { return t.typeAttr }

// StreamView returns the view of the table's stream that the schema
// declares ([TableSpec.Stream]); empty when it declares none.
func (t *Table) StreamView() types.StreamViewType { return t.stream }

// PrimaryKey returns the table's own key.
func (t *Table) PrimaryKey() KeySchema { return t.primary.clone() }

// Index returns the key of the index called name, or the table's primary key
// when name is empty. An unknown name is a [*SchemaError] with the problem
// [SchemaUnknownIndex].
func (t *Table) Index(name string) (KeySchema, error) {
	if name == "" {
		return t.PrimaryKey(), nil
	}
	i, ok := t.byName[name]
	if !ok {
		return KeySchema{}, &SchemaError{Table: t.name, Index: name, Problem: SchemaUnknownIndex, Detail: "the table has no index of that name"}
	}
	return t.indexes[i].clone(), nil
}

// Indexes returns every secondary index, GSIs first, in declaration order.
func (t *Table) Indexes() []KeySchema {
	return cloneSchemas(t.indexes)
}

// cloneSchemas is a clone of each of ks, their attributes copied into one
// block and their projected attributes into another, so that a copy of
// every index is three allocations rather than three per index. Each
// copy's slices are capped: an append to one reallocates rather than
// write over the next's. A nil slice stays nil.
func cloneSchemas(ks []KeySchema) []KeySchema {
	nAttrs, nNames := 0, 0
	for _, k := range ks {
		nAttrs += len(k.PartitionKey) + len(k.SortKey)
		nNames += len(k.Projection.NonKeyAttributes)
	}
	attrs, names := make([]Attribute, 0, nAttrs), make([]string, 0, nNames)
	out := make([]KeySchema, len(ks))
	for i, k := range ks {
		k.PartitionKey, attrs = cut(attrs, k.PartitionKey)
		k.SortKey, attrs = cut(attrs, k.SortKey)
		k.Projection.NonKeyAttributes, names = cut(names, k.Projection.NonKeyAttributes)
		out[i] = k
	}
	return out
}

// cut appends s to block and returns the copy, capped, and block; nil for
// a nil s.
func cut[E any](block, s []E) ([]E, []E) {
	if s == nil {
		return nil, block
	}
	start := len(block)
	block = append(block, s...)
	return block[start:len(block):len(block)], block
}

// AttributeType returns the type of a key attribute of the table or of one
// of its indexes.
func (t *Table) AttributeType(name string) (types.ScalarAttributeType, bool) {
	ty, ok := t.attrTypes[name]
	return ty, ok
}

// index returns the internal key schema (not a copy).
func (t *Table) index(name string) (*KeySchema, bool) {
	if name == "" {
		return &t.primary, true
	}
	i, ok := t.byName[name]
	if !ok {
		return nil, false
	}
	return &t.indexes[i], true
}

// schemaValidator checks a spec and remembers attribute types.
type schemaValidator struct {
	table string
	types map[string]types.ScalarAttributeType
	order []string
}

// keyFromPattern sets spec's key attributes from spec.Key.
func (v *schemaValidator) keyFromPattern(spec *TableSpec) error {
	p := spec.Key.ID().p
	switch {
	case p == nil:
		return v.fail("", "", SchemaPattern, "TableSpec.Key is the zero Pattern: build it with OnTable")
	case p.err != nil:
		return v.fail("", "", SchemaPattern, p.err.Error())
	case p.index != "":
		return v.fail(p.index, "", SchemaPattern, "TableSpec.Key takes the OnTable pattern of the table's key, not an index's; list indexes in GSIs and LSIs")
	case spec.PartitionKey != (Attribute{}) || spec.SortKey != (Attribute{}):
		return v.fail("", "", SchemaPattern, "TableSpec.Key and PartitionKey/SortKey: give the key once")
	case len(p.pk.attrs) != 1 || len(p.sk.attrs) > 1:
		return v.fail("", "", SchemaKeyAttributes, fmt.Sprintf("pattern %s: a table's key has one partition key attribute and at most one sort key attribute", p))
	}
	spec.PartitionKey = p.pk.attrs[0]
	if len(p.sk.attrs) == 1 {
		spec.SortKey = p.sk.attrs[0]
	}
	return nil
}

func (v *schemaValidator) fail(index, attr string, p SchemaProblem, detail string) error {
	return &SchemaError{Table: v.table, Index: index, Attribute: attr, Problem: p, Detail: detail}
}

// name checks a table name (index "") or an index name: 3 to 255 characters
// of a-z, A-Z, 0-9, '_', '-', '.'.
func (v *schemaValidator) name(index, name, what string) error {
	if len(name) < minTableOrIndexNameLen || len(name) > maxNameLen {
		return v.fail(index, "", SchemaName, fmt.Sprintf("%s name %q must have 3 to 255 characters", what, name))
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return v.fail(index, "", SchemaName, fmt.Sprintf("%s name %q may only contain a-z A-Z 0-9 _ - .", what, name))
		}
	}
	return nil
}

func (v *schemaValidator) attributeName(index, name string) error {
	if name == "" || len(name) > maxKeyAttributeNameBytes {
		return v.fail(index, name, SchemaAttributeName, "attribute names have 1 to 255 bytes")
	}
	if !utf8.ValidString(name) {
		return v.fail(index, name, SchemaAttributeName, "not valid UTF-8: the SDK would send each invalid byte as U+FFFD")
	}
	return nil
}

func (v *schemaValidator) billing(mode types.BillingMode, tp *types.ProvisionedThroughput) error {
	switch mode {
	case types.BillingModePayPerRequest:
		if tp != nil {
			return v.fail("", "", SchemaBilling, "Throughput is only for PROVISIONED billing")
		}
	case types.BillingModeProvisioned:
		if tp == nil || tp.ReadCapacityUnits == nil || tp.WriteCapacityUnits == nil ||
			*tp.ReadCapacityUnits < 1 || *tp.WriteCapacityUnits < 1 {
			return v.fail("", "", SchemaBilling, "PROVISIONED billing needs Throughput with read and write capacity of at least 1")
		}
	default:
		return v.fail("", "", SchemaBilling, fmt.Sprintf("billing mode %q; use PAY_PER_REQUEST or PROVISIONED", mode))
	}
	return nil
}

// key checks one key schema: side sizes, names, types, duplicates; and
// records attribute types across the table.
func (v *schemaValidator) key(index string, k KeySchema, maxSide, minSort int) error {
	sides := []struct {
		name     string
		attrs    []Attribute
		min, max int
	}{
		{"partition", k.PartitionKey, 1, maxSide},
		{"sort", k.SortKey, minSort, maxSide},
	}
	seen := map[string]bool{}
	for _, s := range sides {
		if len(s.attrs) < s.min || len(s.attrs) > s.max {
			return v.fail(index, "", SchemaKeyAttributes, fmt.Sprintf("%d %s key attributes; %s", len(s.attrs), s.name, allowed(index, k.Kind, s.name, s.min, s.max)))
		}
		for _, a := range s.attrs {
			if err := v.attributeName(index, a.Name); err != nil {
				return err
			}
			switch a.Type {
			case types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB:
			default:
				return v.fail(index, a.Name, SchemaAttributeType, fmt.Sprintf("type %q; use S, N or B", a.Type))
			}
			if seen[a.Name] {
				return v.fail(index, a.Name, SchemaDuplicateAttribute, "an attribute can appear once per key")
			}
			seen[a.Name] = true
			if prev, ok := v.types[a.Name]; ok && prev != a.Type {
				return v.fail(index, a.Name, SchemaTypeConflict, fmt.Sprintf("declared %s elsewhere and %s here", prev, a.Type))
			}
			if _, ok := v.types[a.Name]; !ok {
				v.order = append(v.order, a.Name)
			}
			v.types[a.Name] = a.Type
		}
	}
	return nil
}

func allowed(index string, kind IndexKind, side string, lo, hi int) string {
	switch {
	case index == "":
		if side == "partition" {
			return "the table has exactly 1"
		}
		return "the table has 0 or 1"
	case kind == LocalIndex:
		return "a local index has exactly 1"
	default:
		return fmt.Sprintf("a global index has %d to %d", lo, hi)
	}
}

// projection checks p and returns it normalised: ALL when empty, the
// entity-type attribute added to INCLUDE.
func (v *schemaValidator) projection(index string, p Projection, k, primary KeySchema, typeAttr string) (Projection, error) {
	out := Projection{Type: p.Type}
	if out.Type == "" {
		out.Type = types.ProjectionTypeAll
	}
	switch out.Type {
	case types.ProjectionTypeAll, types.ProjectionTypeKeysOnly:
		if len(p.NonKeyAttributes) > 0 {
			return out, v.fail(index, "", SchemaProjection, fmt.Sprintf("NonKeyAttributes are only for INCLUDE, not %s", out.Type))
		}
		return out, nil
	case types.ProjectionTypeInclude:
	default:
		return out, v.fail(index, "", SchemaProjection, fmt.Sprintf("projection type %q; use ALL, KEYS_ONLY or INCLUDE", p.Type))
	}
	if len(p.NonKeyAttributes) == 0 {
		return out, v.fail(index, "", SchemaProjection, "INCLUDE needs at least one attribute; use KEYS_ONLY for none")
	}
	seen := map[string]bool{}
	for _, a := range append(slices.Clone(p.NonKeyAttributes), typeAttr) {
		if a == "" || len(a) > maxKeyAttributeNameBytes || !utf8.ValidString(a) {
			return out, v.fail(index, a, SchemaProjection, "projected attribute names have 1 to 255 bytes of valid UTF-8")
		}
		if k.has(a) || primary.has(a) {
			if a == typeAttr {
				continue
			}
			return out, v.fail(index, a, SchemaProjection, "key attributes are always projected; do not list them")
		}
		if seen[a] {
			if a == typeAttr {
				continue
			}
			return out, v.fail(index, a, SchemaProjection, "attribute listed twice")
		}
		seen[a] = true
		out.NonKeyAttributes = append(out.NonKeyAttributes, a)
	}
	return out, nil
}

// copyThroughput copies tp, pointers included.
func copyThroughput(tp *types.ProvisionedThroughput) *types.ProvisionedThroughput {
	if tp == nil {
		return nil
	}
	return &types.ProvisionedThroughput{
		ReadCapacityUnits:  aws.Int64(aws.ToInt64(tp.ReadCapacityUnits)),
		WriteCapacityUnits: aws.Int64(aws.ToInt64(tp.WriteCapacityUnits)),
	}
}

// Must returns v, and panics when err is not nil: for a schema declared at
// package level, where a description that cannot work is a programming
// error found when the program starts.
//
//	var Shop = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{...}))
func Must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}
