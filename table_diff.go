package keyfirst

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// ErrTableDiffers: the live table differs from its schema in a way that
// breaks the schema's reads or writes ([TableDiffError]).
var ErrTableDiffers = errors.New("keyfirst: the table differs from its schema")

// Severity says what a [Difference] does to the code that uses the
// schema.
type Severity uint8

// The severities of a [Difference].
const (
	// SeverityError: the schema's reads or writes fail or go wrong on
	// this table (a missing index, another key, a projection that holds
	// less than the schema declares). [Table.Check] and [Table.Create]
	// return a [*TableDiffError].
	SeverityError Severity = iota + 1
	// SeverityNote: the table serves the schema as declared, but differs
	// from it (an index the schema does not know, a projection that holds
	// more, another billing mode or throughput, a stream or a TTL the
	// schema does not declare): worth a line in the log, not a failure.
	SeverityNote
)

// String returns "error" or "note".
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityNote:
		return "note"
	}
	return fmt.Sprintf("Severity(%d)", uint8(s))
}

// DiffKind says what differs between a schema and the live table.
type DiffKind uint8

// The kinds of [Difference]. Each comes with a severity of its own, given
// in the Difference: a kind can be an error one way and a note the other
// (a projection that holds less, or more).
const (
	DiffTableMissing DiffKind = iota + 1 // the table does not exist
	DiffTableStatus                      // the table is not usable: being created or deleted, archived, its key inaccessible
	DiffKey                              // another key: other attributes, in another order or on another side
	DiffKeyType                          // a key attribute of another type (S, N, B)
	DiffIndexMissing                     // an index of the schema the table lacks
	DiffIndexExtra                       // an index of the table the schema does not declare
	DiffIndexKind                        // a GSI on one side, an LSI of the same name on the other
	DiffIndexStatus                      // an index still being built (CREATING, backfilling) or deleted
	DiffProjection                       // another projection: less than declared (error) or more (note)
	DiffBillingMode                      // another billing mode (PAY_PER_REQUEST, PROVISIONED)
	DiffThroughput                       // another provisioned throughput, on the table or a GSI
	DiffStream                           // another stream setting
	DiffTimeToLive                       // another time-to-live setting
)

var diffKindText = map[DiffKind]string{
	DiffTableMissing: "table missing",
	DiffTableStatus:  "table not usable",
	DiffKey:          "another key",
	DiffKeyType:      "another key attribute type",
	DiffIndexMissing: "index missing",
	DiffIndexExtra:   "index not in the schema",
	DiffIndexKind:    "another kind of index",
	DiffIndexStatus:  "index not active",
	DiffProjection:   "another projection",
	DiffBillingMode:  "another billing mode",
	DiffThroughput:   "another throughput",
	DiffStream:       "another stream setting",
	DiffTimeToLive:   "another time-to-live setting",
}

// String describes the kind.
func (k DiffKind) String() string { return errfmt.ProblemText(diffKindText, k) }

// Difference is one way in which a live table differs from its schema, as
// [Table.Check] and [Table.Diff] find it.
type Difference struct {
	Kind     DiffKind
	Severity Severity
	// Index names the index concerned; empty for the table itself.
	Index string
	// Attribute names the attribute concerned, if any.
	Attribute string
	// Want is what the schema declares, Got what the table has, as text
	// ("PK (S) HASH, SK (S) RANGE", "INCLUDE [_type status]",
	// "PAY_PER_REQUEST"); empty for nothing (an index missing on one
	// side).
	Want, Got string
	// Detail says what the difference does and what to do about it.
	Detail string
}

// String describes the difference: its severity, kind, facts and detail.
func (d Difference) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", d.Severity, d.Kind)
	sep := " ("
	for _, f := range [][2]string{{"index", d.Index}, {"attribute", d.Attribute}} {
		if f[1] != "" {
			fmt.Fprintf(&b, "%s%s %q", sep, f[0], f[1])
			sep = ", "
		}
	}
	if sep == ", " {
		b.WriteString(")")
	}
	if d.Want != "" || d.Got != "" {
		fmt.Fprintf(&b, ": want %s, got %s", orNone(d.Want), orNone(d.Got))
	}
	if d.Detail != "" {
		b.WriteString(": ")
		b.WriteString(d.Detail)
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// TableDiffError reports a live table that differs from its schema in a
// way that breaks the schema's reads or writes: [Table.Check] and
// [Table.Create] return it when one of the differences is a
// [SeverityError]. It wraps [ErrTableDiffers].
type TableDiffError struct {
	Table string // the table's name
	// Differences are every difference found, the notes included.
	Differences []Difference
}

// Errors returns the differences of severity [SeverityError].
func (e *TableDiffError) Errors() []Difference {
	return slices.DeleteFunc(slices.Clone(e.Differences), func(d Difference) bool { return d.Severity != SeverityError })
}

// Error describes the differences, errors first.
func (e *TableDiffError) Error() string {
	var b strings.Builder
	errs := e.Errors()
	fmt.Fprintf(&b, "%v (table %q): %d error%s", ErrTableDiffers, e.Table, len(errs), plural(len(errs)))
	if n := len(e.Differences) - len(errs); n > 0 {
		fmt.Fprintf(&b, ", %d note%s", n, plural(n))
	}
	for _, sev := range []Severity{SeverityError, SeverityNote} {
		for _, d := range e.Differences {
			if d.Severity == sev {
				b.WriteString("; ")
				b.WriteString(d.String())
			}
		}
	}
	return b.String()
}

// Unwrap returns [ErrTableDiffers].
func (e *TableDiffError) Unwrap() error { return ErrTableDiffers }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// diffResult returns the differences and, when one is an error, the
// [*TableDiffError] that carries them all.
func (t *Table) diffResult(diffs []Difference) ([]Difference, error) {
	for _, d := range diffs {
		if d.Severity == SeverityError {
			return diffs, &TableDiffError{Table: t.name, Differences: diffs}
		}
	}
	return diffs, nil
}

// Diff compares the schema with the table as DynamoDB describes it
// (DescribeTable's Table, DescribeTimeToLive's TimeToLiveDescription; a
// nil desc is a table that does not exist, a nil ttl is not compared) and
// returns the differences, errors first, each once: [Table.Check] without
// the requests. The schema is the reference: Want is the schema's, Got the
// table's.
//
// The errors are what breaks the schema's reads or writes: a missing
// table or index, another key (attributes, order, sides, types), an index
// of the other kind, an index of the schema still being built, and a
// projection that holds less than the schema declares (the query package
// plans every read of an index by its declared projection, so an
// attribute the index lacks would read as missing, and an entity's item
// could not be told whole). The notes are what works but differs: an index
// the schema does not declare, a projection that holds more, another
// billing mode or throughput, a stream or a TTL that the schema does not
// declare. A stream the schema declares ([TableSpec.Stream]) that the
// table lacks, or whose view carries fewer images, is an error, and so is
// a time to live it declares ([TableSpec.TimeToLive]) that the table does
// not have on that attribute.
func (t *Table) Diff(desc *types.TableDescription, ttl *types.TimeToLiveDescription) []Difference {
	if desc == nil {
		return []Difference{{Kind: DiffTableMissing, Severity: SeverityError, Want: t.name,
			Detail: "create it with Table.Create"}}
	}
	c := differ{t: t, live: map[string]types.ScalarAttributeType{}, reported: map[string]bool{}}
	for _, d := range desc.AttributeDefinitions {
		c.live[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	c.tableStatus(desc.TableStatus)
	c.key(t.primary, desc.KeySchema)
	c.indexes(desc)
	c.billing(desc)
	c.stream(desc.StreamSpecification)
	if ttl != nil {
		c.timeToLive(ttl)
	}
	slices.SortStableFunc(c.out, func(a, b Difference) int { return int(a.Severity) - int(b.Severity) })
	return c.out
}

// differ collects the differences of one comparison.
type differ struct {
	t        *Table
	live     map[string]types.ScalarAttributeType // the table's attribute definitions
	reported map[string]bool                      // attributes whose type difference is reported
	out      []Difference
}

func (c *differ) add(d Difference) { c.out = append(c.out, d) }

func (c *differ) tableStatus(s types.TableStatus) {
	switch s {
	case types.TableStatusActive, types.TableStatusUpdating, "":
		return
	}
	c.add(Difference{Kind: DiffTableStatus, Severity: SeverityError, Want: string(types.TableStatusActive), Got: string(s),
		Detail: "the table cannot serve requests in this state; Table.Create waits while it is being created"})
}

// keyText describes a key as DynamoDB's key schema does, with the types of
// its attributes: "PK (S) HASH, SK (S) RANGE".
func keyText(elems []types.KeySchemaElement, typeOf func(string) types.ScalarAttributeType) string {
	parts := make([]string, len(elems))
	for i, e := range elems {
		name := aws.ToString(e.AttributeName)
		ty := typeOf(name)
		if ty == "" {
			ty = "?"
		}
		parts[i] = fmt.Sprintf("%s (%s) %s", name, ty, e.KeyType)
	}
	return strings.Join(parts, ", ")
}

// key compares the schema's key k with the live key schema elems: the
// attributes, in order and on their sides, then their types.
func (c *differ) key(k KeySchema, elems []types.KeySchemaElement) {
	want := keySchemaElements(k)
	same := len(want) == len(elems)
	for i := 0; same && i < len(want); i++ {
		same = aws.ToString(want[i].AttributeName) == aws.ToString(elems[i].AttributeName) && want[i].KeyType == elems[i].KeyType
	}
	if !same {
		c.add(Difference{Kind: DiffKey, Severity: SeverityError, Index: k.IndexName,
			Want: keyText(want, c.schemaType), Got: keyText(elems, c.liveType),
			Detail: "every key condition and every item's key is built for the declared key: " + c.keyAdvice(k)})
		return
	}
	for _, a := range k.Attributes() {
		if got := c.live[a.Name]; got != a.Type && !c.reported[a.Name] {
			c.reported[a.Name] = true
			c.add(Difference{Kind: DiffKeyType, Severity: SeverityError, Index: k.IndexName, Attribute: a.Name,
				Want: string(a.Type), Got: orNone(string(got)),
				Detail: "DynamoDB refuses every write of a value of the declared type: " + c.keyAdvice(k)})
		}
	}
}

func (c *differ) keyAdvice(k KeySchema) string {
	switch k.Kind {
	case GlobalIndex:
		return "a GSI's key cannot change; create the declared one under a new name (Table.AddIndex) and retire this one"
	case LocalIndex:
		return "an LSI exists only with its table: declare the table's LSI as it is, or create a new table and copy the items"
	}
	return "a table's key cannot change: declare the table as it is, or create a new table and copy the items"
}

func (c *differ) schemaType(name string) types.ScalarAttributeType { return c.t.attrTypes[name] }
func (c *differ) liveType(name string) types.ScalarAttributeType   { return c.live[name] }

// liveIndex is a secondary index as DynamoDB describes it.
type liveIndex struct {
	kind        IndexKind
	key         []types.KeySchemaElement
	projection  *types.Projection
	status      types.IndexStatus
	backfilling bool
	throughput  *types.ProvisionedThroughputDescription
}

func liveIndexes(desc *types.TableDescription) (map[string]liveIndex, []string) {
	out := map[string]liveIndex{}
	var order []string
	for _, g := range desc.GlobalSecondaryIndexes {
		name := aws.ToString(g.IndexName)
		out[name] = liveIndex{kind: GlobalIndex, key: g.KeySchema, projection: g.Projection, status: g.IndexStatus,
			backfilling: aws.ToBool(g.Backfilling), throughput: g.ProvisionedThroughput}
		order = append(order, name)
	}
	for _, l := range desc.LocalSecondaryIndexes {
		name := aws.ToString(l.IndexName)
		out[name] = liveIndex{kind: LocalIndex, key: l.KeySchema, projection: l.Projection}
		order = append(order, name)
	}
	return out, order
}

// indexes compares the schema's indexes with the table's.
func (c *differ) indexes(desc *types.TableDescription) {
	live, order := liveIndexes(desc)
	for _, ix := range c.t.indexes {
		got, ok := live[ix.IndexName]
		switch {
		case !ok && ix.Kind == GlobalIndex:
			c.add(Difference{Kind: DiffIndexMissing, Severity: SeverityError, Index: ix.IndexName, Want: "GSI",
				Detail: "every read of it fails; create it with Table.AddIndex, then backfill its key attributes (package migrate)"})
			continue
		case !ok:
			c.add(Difference{Kind: DiffIndexMissing, Severity: SeverityError, Index: ix.IndexName, Want: "LSI",
				Detail: "every read of it fails; an LSI exists only with its table: create a new table with it and copy the items"})
			continue
		case got.kind != ix.Kind:
			c.add(Difference{Kind: DiffIndexKind, Severity: SeverityError, Index: ix.IndexName, Want: ix.Kind.String(), Got: got.kind.String(),
				Detail: "a GSI and an LSI differ in consistency, throughput and size limits: declare the index as it is"})
			continue
		}
		c.key(ix, got.key)
		c.indexStatus(ix, got)
		c.projection(ix, got.projection)
	}
	for _, name := range order {
		if _, ok := c.t.byName[name]; !ok {
			c.add(Difference{Kind: DiffIndexExtra, Severity: SeverityNote, Index: name, Got: live[name].kind.String(),
				Detail: "every write of an item that has its key attributes also writes it, and pays for it"})
		}
	}
}

func (c *differ) indexStatus(ix KeySchema, got liveIndex) {
	switch {
	case got.status == types.IndexStatusCreating || got.backfilling:
		c.add(Difference{Kind: DiffIndexStatus, Severity: SeverityError, Index: ix.IndexName, Want: string(types.IndexStatusActive),
			Got:    string(got.status) + map[bool]string{true: ", backfilling"}[got.backfilling],
			Detail: "DynamoDB is still building it, so its queries miss items; Table.AddIndex waits until it is built"})
	case got.status == types.IndexStatusDeleting:
		c.add(Difference{Kind: DiffIndexStatus, Severity: SeverityError, Index: ix.IndexName, Want: string(types.IndexStatusActive), Got: string(got.status),
			Detail: "it is being deleted; once gone, create it again with Table.AddIndex"})
	}
}

// projected is a projection as a set: ALL, or the non-key attributes that
// KEYS_ONLY (none) or INCLUDE copies.
type projected struct {
	all   bool
	attrs []string // sorted
}

func projectedOf(typ types.ProjectionType, nonKey []string) projected {
	if typ == types.ProjectionTypeAll || typ == "" {
		return projected{all: true}
	}
	attrs := slices.Clone(nonKey)
	slices.Sort(attrs)
	return projected{attrs: slices.Compact(attrs)}
}

// minus returns the attributes p holds that q lacks; all reports that p
// is ALL and q is not.
func (p projected) minus(q projected) (attrs []string, all bool) {
	if q.all {
		return nil, false
	}
	if p.all {
		return nil, true
	}
	for _, a := range p.attrs {
		if _, found := slices.BinarySearch(q.attrs, a); !found {
			attrs = append(attrs, a)
		}
	}
	return attrs, false
}

func projectionText(typ types.ProjectionType, nonKey []string) string {
	if typ == types.ProjectionTypeInclude {
		attrs := slices.Clone(nonKey)
		slices.Sort(attrs)
		return fmt.Sprintf("INCLUDE %v", attrs)
	}
	return string(typ)
}

// projection compares an index's declared projection with the table's:
// holding less than declared is an error, holding more a note.
func (c *differ) projection(ix KeySchema, got *types.Projection) {
	if got == nil {
		got = &types.Projection{}
	}
	want := projectedOf(ix.Projection.Type, ix.Projection.NonKeyAttributes)
	have := projectedOf(got.ProjectionType, got.NonKeyAttributes)
	missing, missingAll := want.minus(have)
	extra, extraAll := have.minus(want)
	if len(missing) == 0 && !missingAll && len(extra) == 0 && !extraAll {
		return
	}
	d := Difference{Kind: DiffProjection, Index: ix.IndexName,
		Want: projectionText(ix.Projection.Type, ix.Projection.NonKeyAttributes), Got: projectionText(got.ProjectionType, got.NonKeyAttributes)}
	if len(missing) > 0 || missingAll {
		d.Severity = SeverityError
		lacks := "every attribute but the keys and " + strings.Join(quoteAll(have.attrs), ", ")
		if !missingAll {
			lacks = strings.Join(quoteAll(missing), ", ")
		}
		d.Detail = fmt.Sprintf("the index lacks %s, which reads of it expect (the query package plans them by the declared projection)%s; "+
			"a GSI's projection cannot change: create one that projects them under a new name (Table.AddIndex), or declare the projection as it is",
			lacks, c.readers(ix.IndexName))
	} else {
		d.Severity = SeverityNote
		d.Detail = "the index holds more than declared: its reads work, its writes cost more than they need"
	}
	c.add(d)
}

// readers names the entity types whose items can be in the index.
func (c *differ) readers(index string) string {
	in := c.t.EntitiesIn(index)
	if len(in) == 0 {
		return ""
	}
	names := make([]string, 0, len(in))
	for name := range in {
		names = append(names, name)
	}
	slices.Sort(names)
	return "; the entities read through it: " + strings.Join(names, ", ")
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

// billing compares the billing mode and, when both are PROVISIONED, the
// throughput of the table and of each GSI of the schema.
func (c *differ) billing(desc *types.TableDescription) {
	got := types.BillingModeProvisioned // a table without a summary has always been provisioned
	if desc.BillingModeSummary != nil && desc.BillingModeSummary.BillingMode != "" {
		got = desc.BillingModeSummary.BillingMode
	}
	if got != c.t.billing {
		c.add(Difference{Kind: DiffBillingMode, Severity: SeverityNote, Want: string(c.t.billing), Got: string(got),
			Detail: "reads and writes work; their cost and their throttling follow the table's mode"})
		return
	}
	if got != types.BillingModeProvisioned {
		return
	}
	c.throughput("", desc.ProvisionedThroughput)
	live, _ := liveIndexes(desc)
	for _, ix := range c.t.indexes {
		if g, ok := live[ix.IndexName]; ok && ix.Kind == GlobalIndex && g.kind == GlobalIndex {
			c.throughput(ix.IndexName, g.throughput)
		}
	}
}

func throughputText(r, w int64) string { return fmt.Sprintf("%d RCU, %d WCU", r, w) }

func (c *differ) throughput(index string, got *types.ProvisionedThroughputDescription) {
	r, w := aws.ToInt64(c.t.throughput.ReadCapacityUnits), aws.ToInt64(c.t.throughput.WriteCapacityUnits)
	var gr, gw int64
	if got != nil {
		gr, gw = aws.ToInt64(got.ReadCapacityUnits), aws.ToInt64(got.WriteCapacityUnits)
	}
	if r != gr || w != gw {
		c.add(Difference{Kind: DiffThroughput, Severity: SeverityNote, Index: index, Want: throughputText(r, w), Got: throughputText(gr, gw),
			Detail: "reads and writes work, throttled at the table's throughput (auto scaling changes it)"})
	}
}

// stream compares the stream setting. A stream the schema does not
// declare is a note; a declared stream that the table lacks, or whose view
// carries less than the declared one (NEW_IMAGE for NEW_AND_OLD_IMAGES),
// is an error: its consumers cannot be served. A view that carries more is
// a note.
func (c *differ) stream(s *types.StreamSpecification) {
	var got types.StreamViewType
	if s != nil && aws.ToBool(s.StreamEnabled) {
		got = s.StreamViewType
	}
	want := c.t.stream
	switch {
	case got == want:
	case want == "":
		c.add(Difference{Kind: DiffStream, Severity: SeverityNote, Want: "disabled", Got: "enabled, " + string(got),
			Detail: "the schema declares no stream; the table records every change for a stream's consumers"})
	case got == "":
		c.add(Difference{Kind: DiffStream, Severity: SeverityError, Want: "enabled, " + string(want), Got: "disabled",
			Detail: "the schema's stream consumers find no stream; enable it (UpdateTable StreamSpecification)"})
	case streamCarries(got, want):
		c.add(Difference{Kind: DiffStream, Severity: SeverityNote, Want: "enabled, " + string(want), Got: "enabled, " + string(got),
			Detail: "the stream carries more than declared: its consumers are served"})
	default:
		c.add(Difference{Kind: DiffStream, Severity: SeverityError, Want: "enabled, " + string(want), Got: "enabled, " + string(got),
			Detail: "the stream's records lack images its consumers need; a stream's view cannot change: disable the stream and enable it with the declared view (a new stream, whose consumers start afresh)"})
	}
}

// streamCarries reports whether a stream of view got carries every image
// one of view want carries.
func streamCarries(got, want types.StreamViewType) bool {
	switch got {
	case types.StreamViewTypeNewAndOldImages:
		return true
	case types.StreamViewTypeNewImage, types.StreamViewTypeOldImage:
		return want == got || want == types.StreamViewTypeKeysOnly
	}
	return want == got
}

// timeToLive compares the TTL setting with the schema's
// ([TableSpec.TimeToLive]): a TTL the schema declares that the table does
// not have on that attribute is an error (the items written to expire
// would never be deleted); one the table has and the schema does not
// declare is a note.
func (c *differ) timeToLive(ttl *types.TimeToLiveDescription) {
	on := ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabled || ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabling
	got := "disabled"
	if on {
		got = string(ttl.TimeToLiveStatus) + " on " + aws.ToString(ttl.AttributeName)
	}
	switch want := c.t.ttl; {
	case want != "" && (!on || aws.ToString(ttl.AttributeName) != want):
		c.add(Difference{Kind: DiffTimeToLive, Severity: SeverityError, Attribute: want, Want: "ENABLED on " + want, Got: got,
			Detail: "the schema declares a time to live: without it DynamoDB never deletes the items that expire; enable it (UpdateTimeToLive), " +
				"which Table.Create does for a table it creates"})
	case want == "" && on:
		c.add(Difference{Kind: DiffTimeToLive, Severity: SeverityNote, Attribute: aws.ToString(ttl.AttributeName), Want: "disabled", Got: got,
			Detail: "the schema declares no time to live; DynamoDB deletes the items whose attribute holds a past epoch time"})
	}
}
