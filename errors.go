package keyfirst

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// The sentinel errors of the package. Match them with [errors.Is]; the typed
// errors that wrap them ([SchemaError], [EntityError], [ItemError], ...)
// carry the facts and are matched with [errors.As].
var (
	// ErrInvalidSchema: [NewTable] refused the table description.
	ErrInvalidSchema = errors.New("keyfirst: invalid table schema")
	// ErrInvalidEntity: [NewEntity] refused the entity description.
	ErrInvalidEntity = errors.New("keyfirst: invalid entity")
	// ErrInvalidPattern: a [Pattern] or [Side] that cannot be used, or a
	// key value its codecs refuse.
	ErrInvalidPattern = errors.New("keyfirst: invalid access pattern")
	// ErrInvalidItem: an item cannot be written or read as it is (a key
	// derivation failed or gave an empty or mistyped value, the item is too
	// large...). Nothing was sent.
	ErrInvalidItem = errors.New("keyfirst: invalid item")
	// ErrInvalidOption: an option does not apply to the operation or has
	// an invalid value. Nothing was sent.
	ErrInvalidOption = errors.New("keyfirst: invalid option")
	// ErrUnknownEntityType: an item's entity-type attribute names no entity
	// registered on the table (or the item has none).
	ErrUnknownEntityType = errors.New("keyfirst: unknown entity type")
	// ErrWrongEntityType: an item belongs to another entity type than the
	// one asked for.
	ErrWrongEntityType = errors.New("keyfirst: item of another entity type")
	// ErrAmbiguousEntityType: an item without the entity-type attribute
	// is claimed by the key of more than one entity ([EntitySpec.Adopt]).
	ErrAmbiguousEntityType = errors.New("keyfirst: item claimed by several entity types")
	// ErrNotFound: no item has the key.
	ErrNotFound = errors.New("keyfirst: item not found")
	// ErrAlreadyExists: a create-only write found an item with the key.
	ErrAlreadyExists = errors.New("keyfirst: item already exists")
	// ErrVersionConflict: the stored item's version is not the one the
	// write expected or, for [Entity.Modify] of an entity without a
	// version, the stored item changed since it was read: another writer
	// came first (a lost update, refused).
	ErrVersionConflict = errors.New("keyfirst: version conflict")
	// ErrConditionUnexplained: [Entity.Modify]'s condition failed although
	// the stored item, as DynamoDB returned it with the failure, is the one
	// read: no other writer caused it, so retrying cannot help. It is a bug
	// in keyfirst or a value DynamoDB does not find equal to itself; please
	// report it.
	ErrConditionUnexplained = errors.New("keyfirst: write condition failed on an unchanged item")
	// ErrKeyChanged: a modification changed the item's primary key, which
	// would write another item. Nothing was sent.
	ErrKeyChanged = errors.New("keyfirst: primary key changed")
	// ErrDuplicateKey: a batch names the same key twice. Nothing was sent.
	ErrDuplicateKey = errors.New("keyfirst: duplicate key in batch")
	// ErrInvalidUpdate: a partial update ([Entity.Update]) that cannot be
	// sent as it is: an unknown field, a value of the wrong type, a change
	// that would leave a derived key stale. Nothing was sent.
	ErrInvalidUpdate = errors.New("keyfirst: invalid update")
	// ErrUnprocessed: a batch ended (context done, attempts exhausted or a
	// request failed) with items not written or not read.
	ErrUnprocessed = errors.New("keyfirst: batch left items unprocessed")
)

// SchemaProblem says which rule a table description breaks.
type SchemaProblem uint8

// The problems [NewTable] reports.
const (
	SchemaName               SchemaProblem = iota + 1 // a table or index name is empty, too short or long, or has a character DynamoDB refuses
	SchemaAttributeName                               // an attribute name is empty, longer than 255 bytes or not valid UTF-8
	SchemaAttributeType                               // an attribute type is not S, N or B
	SchemaTypeConflict                                // one attribute is declared with two types
	SchemaDuplicateIndex                              // two indexes have the same name
	SchemaTooManyGSIs                                 // more than 20 global secondary indexes
	SchemaTooManyLSIs                                 // more than 5 local secondary indexes
	SchemaKeyAttributes                               // a key side has too few or too many attributes
	SchemaDuplicateAttribute                          // an attribute appears twice in one key
	SchemaLSIPartitionKey                             // an LSI's partition key is not the table's
	SchemaLSIWithoutSortKey                           // an LSI on a table without a sort key
	SchemaProjection                                  // an invalid projection
	SchemaBilling                                     // an invalid billing mode or throughput
	SchemaUnknownIndex                                // a lookup of an index the table does not have
	SchemaPattern                                     // a Pattern given to the table carries an error or is not of the table's key
	SchemaStream                                      // an invalid stream view type
)

var schemaProblemText = map[SchemaProblem]string{
	SchemaName:               "invalid name",
	SchemaAttributeName:      "invalid attribute name",
	SchemaAttributeType:      "invalid attribute type",
	SchemaTypeConflict:       "attribute declared with two types",
	SchemaDuplicateIndex:     "duplicate index name",
	SchemaTooManyGSIs:        "too many global secondary indexes",
	SchemaTooManyLSIs:        "too many local secondary indexes",
	SchemaKeyAttributes:      "wrong number of key attributes",
	SchemaDuplicateAttribute: "attribute used twice in one key",
	SchemaLSIPartitionKey:    "local index partition key differs from the table's",
	SchemaLSIWithoutSortKey:  "local index on a table without a sort key",
	SchemaProjection:         "invalid projection",
	SchemaBilling:            "invalid billing",
	SchemaPattern:            "invalid pattern",
	SchemaStream:             "invalid stream view",
	SchemaUnknownIndex:       "unknown index",
}

// String describes the problem.
func (p SchemaProblem) String() string { return errfmt.ProblemText(schemaProblemText, p) }

// SchemaError is the error of [NewTable]: which rule the description breaks
// and where. It wraps [ErrInvalidSchema].
type SchemaError struct {
	Table     string        // the table name as given
	Index     string        // the index concerned, if any
	Attribute string        // the attribute concerned, if any
	Problem   SchemaProblem // the rule broken
	Detail    string        // what was found and what to do instead
}

// Error describes the failure with its facts.
func (e *SchemaError) Error() string {
	return errfmt.Describe(ErrInvalidSchema, e.Problem.String(), e.Detail,
		"table", e.Table, "index", e.Index, "attribute", e.Attribute)
}

// Unwrap returns [ErrInvalidSchema].
func (e *SchemaError) Unwrap() error { return ErrInvalidSchema }

// EntityProblem says which rule an entity description breaks.
type EntityProblem uint8

// The problems [NewEntity] reports.
const (
	EntityNoTable         EntityProblem = iota + 1 // the table is nil
	EntityGoType                                   // T is not a struct the codec supports
	EntityTypeName                                 // the entity-type name is empty or not valid UTF-8
	EntityDuplicateType                            // another entity has the type name on this table
	EntityMissingKey                               // no binding of the table's primary key
	EntityUnknownIndex                             // an index name the table does not have
	EntityDerivedTwice                             // one attribute derived in two places
	EntityFieldCollision                           // a field of T uses a derived or reserved attribute name
	EntityFieldType                                // a field of T that is an index key encodes to the wrong type
	EntityVersion                                  // the version attribute is not an integer field of T of 32 bits or more, or is a key
	EntityScannableShared                          // another entity type can already be in this Scannable index
	EntityFieldOrder                               // a field of T that is an index sort key does not encode in its values' order
	EntityPattern                                  // a bound Pattern does not fit the table, or carries an error
	EntityBinding                                  // the fields or function bound to a Pattern do not fit T
	EntityOtherTable                               // Entity.In with a table that is not a binding of the entity's table description
	EntityLifecycle                                // a Created, Updated or Expires field that is not a time.Time field of T keyfirst can set, or an Expires the table's TimeToLive does not name
	EntityUnique                                   // a unique field (EntitySpec.Unique) that is not a string, number or binary field of T, or is a key, the version or a lifecycle field
)

var entityProblemText = map[EntityProblem]string{
	EntityNoTable:         "no table",
	EntityGoType:          "unsupported Go type",
	EntityTypeName:        "empty entity type name",
	EntityDuplicateType:   "entity type already registered",
	EntityMissingKey:      "primary key attribute not derived",
	EntityUnknownIndex:    "unknown index",
	EntityDerivedTwice:    "attribute derived twice",
	EntityFieldCollision:  "field collides with a derived or reserved attribute",
	EntityFieldType:       "field type does not match the index key type",
	EntityVersion:         "invalid version attribute",
	EntityScannableShared: "scannable index already holds another entity type",
	EntityFieldOrder:      "field does not encode in its values' order",
	EntityPattern:         "pattern does not fit the table",
	EntityBinding:         "binding does not fit T",
	EntityLifecycle:       "invalid lifecycle attribute",
	EntityOtherTable:      "table of another description",
	EntityUnique:          "invalid unique field",
}

// String describes the problem.
func (p EntityProblem) String() string { return errfmt.ProblemText(entityProblemText, p) }

// EntityError is the error of [NewEntity]. It wraps [ErrInvalidEntity] and,
// when there is one, the underlying cause.
type EntityError struct {
	Entity    string        // the entity-type name
	GoType    string        // T
	Index     string        // the index concerned, if any
	Attribute string        // the attribute concerned, if any
	Problem   EntityProblem // the rule broken
	Detail    string        // what was found and what to do instead
	Err       error         // the cause, if any
}

// Error describes the failure with its facts.
func (e *EntityError) Error() string {
	return errfmt.Describe(ErrInvalidEntity, e.Problem.String(), errfmt.Detail(e.Detail, e.Err),
		"entity", e.Entity, "type", e.GoType, "index", e.Index, "attribute", e.Attribute)
}

// Unwrap returns [ErrInvalidEntity] and the cause.
func (e *EntityError) Unwrap() []error { return errfmt.Causes(ErrInvalidEntity, e.Err) }

// ItemProblem says why an item cannot be written or read.
type ItemProblem uint8

// The problems of [ItemError].
const (
	ItemDerive      ItemProblem = iota + 1 // a derivation returned an error (see Err)
	ItemMissingKey                         // a primary key derivation reported no value, or an item in an index omits a key field
	ItemEmptyKey                           // a key attribute would be an empty string or binary
	ItemKeyType                            // a key attribute value has the wrong type
	ItemKeyTooLong                         // a key value exceeds DynamoDB's limit (2048 bytes partition, 1024 sort)
	ItemBadNumber                          // a number DynamoDB refuses (NaN, infinite, over 38 digits, magnitude outside 1E-130..1E+126), in a key or any attribute
	ItemTooLarge                           // the item exceeds 400 KB
	ItemEncode                             // T could not be encoded (see Err)
	ItemDecode                             // an item could not be decoded into T (see Err)
	ItemVersioned                          // a versioned entity in a batch write, which cannot check versions
	ItemBadString                          // a string or name is not valid UTF-8 (the SDK would replace each invalid byte with U+FFFD)
	ItemVersionMax                         // the version is the largest its field holds: the next one would overflow
	ItemExpression                         // the write needs an expression larger than DynamoDB allows
	ItemBadSet                             // a set that is empty or holds an element twice (numbers compared by value)
	ItemKeyConflict                        // two bound patterns compute different values for one attribute
	ItemTooDeep                            // lists and maps nested beyond DynamoDB's 32 levels ([MaxNesting])
	ItemExpires                            // an expiry DynamoDB's TTL cannot hold (before 1970), or none where EntitySpec.ExpiresRequired
	ItemCreated                            // an entity with a created time in a batch write, which cannot keep the stored one
	ItemTime                               // a created or updated time outside years 0000..9999, which TimeKeyLayout cannot store
)

var itemProblemText = map[ItemProblem]string{
	ItemDerive:      "key derivation failed",
	ItemMissingKey:  "key attribute has no value",
	ItemEmptyKey:    "empty key value",
	ItemKeyType:     "key value of the wrong type",
	ItemKeyTooLong:  "key value too long",
	ItemBadNumber:   "invalid number",
	ItemBadSet:      "invalid set",
	ItemTooLarge:    "item larger than 400 KB",
	ItemEncode:      "cannot encode",
	ItemDecode:      "cannot decode",
	ItemVersioned:   "versioned entity in a batch write",
	ItemBadString:   "invalid UTF-8",
	ItemVersionMax:  "version field full",
	ItemExpression:  "expression beyond DynamoDB's limits",
	ItemKeyConflict: "patterns disagree on a key attribute",
	ItemTooDeep:     "nested too deep",
	ItemExpires:     "expiry cannot be stored",
	ItemCreated:     "created time in a batch write",
	ItemTime:        "time outside years 0000..9999",
}

// String describes the problem.
func (p ItemProblem) String() string { return errfmt.ProblemText(itemProblemText, p) }

// ItemError reports an item that cannot be written or read. It is returned
// before any request is sent. It wraps [ErrInvalidItem] and, when there is
// one, the cause (for example the error of a keys codec, so
// errors.Is(err, keys.ErrSeparator) holds).
type ItemError struct {
	Entity    string      // the entity-type name
	Index     string      // the index whose key is concerned, if any
	Attribute string      // the attribute concerned, if any
	Problem   ItemProblem // what is wrong
	Detail    string      // the facts: the value, the size...
	Err       error       // the cause, if any
}

// Error describes the failure with its facts.
func (e *ItemError) Error() string {
	return errfmt.Describe(ErrInvalidItem, e.Problem.String(), errfmt.Detail(e.Detail, e.Err),
		"entity", e.Entity, "index", e.Index, "attribute", e.Attribute)
}

// Unwrap returns [ErrInvalidItem] and the cause.
func (e *ItemError) Unwrap() []error { return errfmt.Causes(ErrInvalidItem, e.Err) }

// UpdateProblem says why a partial update ([Entity.Update]) is refused.
type UpdateProblem uint8

// The problems of [UpdateError].
const (
	UpdateEmpty          UpdateProblem = iota + 1 // an update without a change
	UpdateUnknownField                            // no field of T has the name (Go names: "Stock", not "stock")
	UpdateFieldTwice                              // two changes of one field
	UpdateKeyField                                // a change of a field the table's primary key reads
	UpdateVersionField                            // a change of the version field, which every update increments itself
	UpdateValueType                               // a value that is not of the field's type (nor converts to it exactly)
	UpdateNotNumber                               // Add on a field that is not stored as a number
	UpdateNotList                                 // Append on a field that is not stored as a list
	UpdateNotSet                                  // AddToSet or DeleteFromSet on a field that is not stored as a set
	UpdateEmptyValue                              // Append, AddToSet or DeleteFromSet without an element
	UpdateStaleKey                                // a change of a field an index key reads, without every field it reads
	UpdateUndeclared                              // the entity has a key computed by a function that does not declare what it reads (Binding.Reads)
	UpdateUndeclaredRead                          // after the write: a key function read a field it does not declare; keyfirst rewrote the key
	UpdateCondition                               // a condition that cannot be evaluated as written (see Detail)
	UpdateLifecycleField                          // a change of the Created or Updated field, which keyfirst sets itself
)

var updateProblemText = map[UpdateProblem]string{
	UpdateEmpty:          "no change",
	UpdateUnknownField:   "unknown field",
	UpdateFieldTwice:     "field changed twice",
	UpdateKeyField:       "field of the primary key",
	UpdateVersionField:   "version field",
	UpdateValueType:      "value of the wrong type",
	UpdateNotNumber:      "not a number",
	UpdateNotList:        "not a list",
	UpdateNotSet:         "not a set",
	UpdateEmptyValue:     "no element",
	UpdateStaleKey:       "would leave a key stale",
	UpdateUndeclared:     "key function without declared inputs",
	UpdateUndeclaredRead: "key function read an undeclared field",
	UpdateCondition:      "invalid condition",
	UpdateLifecycleField: "lifecycle field",
}

// String describes the problem.
func (p UpdateProblem) String() string { return errfmt.ProblemText(updateProblemText, p) }

// UpdateError reports a partial update refused before any request, or,
// with [UpdateUndeclaredRead], a key that a wrong [Binding.Reads] let an
// update leave stale and that keyfirst rewrote. It wraps
// [ErrInvalidUpdate] and the cause, if any.
type UpdateError struct {
	Entity  string        // the entity-type name
	Index   string        // the index whose key is concerned, if any
	Field   string        // the field concerned (its Go name), if any
	Problem UpdateProblem // what is wrong
	Detail  string        // the facts, and what to do instead
	Err     error         // the cause, if any
}

// Error describes the failure with its facts.
func (e *UpdateError) Error() string {
	return errfmt.Describe(ErrInvalidUpdate, e.Problem.String(), errfmt.Detail(e.Detail, e.Err),
		"entity", e.Entity, "index", e.Index, "field", e.Field)
}

// Unwrap returns [ErrInvalidUpdate] and the cause.
func (e *UpdateError) Unwrap() []error { return errfmt.Causes(ErrInvalidUpdate, e.Err) }

// OptionError reports an option that does not apply to an operation, or an
// invalid option value. It wraps [ErrInvalidOption].
type OptionError struct {
	Op     string // the operation
	Option string // the option
	Detail string // why it is refused
}

// Error describes the failure with its facts.
func (e *OptionError) Error() string {
	return errfmt.Describe(ErrInvalidOption, e.Option, e.Detail, "op", e.Op)
}

// Unwrap returns [ErrInvalidOption].
func (e *OptionError) Unwrap() error { return ErrInvalidOption }

// EntityTypeError reports an item whose entity-type attribute is not the
// expected one. It wraps [ErrWrongEntityType] when Want is set, and
// [ErrUnknownEntityType] when no entity of the table has the type.
type EntityTypeError struct {
	Want string // the expected type; empty when decoding any registered type
	Got  string // the item's type; empty when the attribute is missing
}

// Error describes the failure with its facts.
func (e *EntityTypeError) Error() string {
	got := e.Got
	if got == "" {
		got = "(no entity-type attribute)"
	}
	if e.Want == "" {
		return fmt.Sprintf("%v %q", ErrUnknownEntityType, got)
	}
	return fmt.Sprintf("%v: got %q, want %q", ErrWrongEntityType, got, e.Want)
}

// Unwrap returns [ErrWrongEntityType] or [ErrUnknownEntityType].
func (e *EntityTypeError) Unwrap() error {
	if e.Want == "" {
		return ErrUnknownEntityType
	}
	return ErrWrongEntityType
}

// ClaimError reports an item without the entity-type attribute, on a
// table where an entity adopts such items by key ([EntitySpec.Adopt]),
// that cannot be decoded as asked: several entities claim its key (it
// wraps [ErrAmbiguousEntityType]), none does ([ErrUnknownEntityType], or
// [ErrWrongEntityType] when Want is set), or another entity than Want
// does ([ErrWrongEntityType]).
type ClaimError struct {
	Want   string                          // the expected type; empty when decoding any registered type
	Key    map[string]types.AttributeValue // the item's table primary key
	Claims []string                        // the entities whose Adopt claims the key, in registration order
}

// Error describes the failure with its facts.
func (e *ClaimError) Error() string {
	key := itemKeyText(e.Key)
	switch {
	case len(e.Claims) > 1:
		return fmt.Sprintf("%v: the key %s is claimed by %s: make their Adopt functions exclusive", ErrAmbiguousEntityType, key, strings.Join(e.Claims, ", "))
	case len(e.Claims) == 1:
		return fmt.Sprintf("%v: the untyped item %s is claimed by %q, want %q", ErrWrongEntityType, key, e.Claims[0], e.Want)
	case e.Want != "":
		return fmt.Sprintf("%v: no entity claims the untyped item %s, want %q", ErrWrongEntityType, key, e.Want)
	}
	return fmt.Sprintf("%v: no entity claims the untyped item %s", ErrUnknownEntityType, key)
}

// Unwrap returns [ErrAmbiguousEntityType], [ErrWrongEntityType] or
// [ErrUnknownEntityType].
func (e *ClaimError) Unwrap() error {
	switch {
	case len(e.Claims) > 1:
		return ErrAmbiguousEntityType
	case e.Want != "":
		return ErrWrongEntityType
	}
	return ErrUnknownEntityType
}

// ConditionError reports a conditional write that DynamoDB refused, with
// what the stored item held. It wraps [ErrAlreadyExists], [ErrNotFound],
// [ErrVersionConflict], [ErrWrongEntityType] or [ErrConditionUnexplained].
type ConditionError struct {
	Err       error  // the sentinel
	Versioned bool   // whether the entity has a version attribute (Expected and Actual are versions)
	Expected  int64  // the version the write expected (versioned entities)
	Actual    int64  // the stored version, when an item was found
	Found     bool   // whether an item was stored under the key
	FoundType string // the stored item's entity type, when found
	// Item is the stored item as DynamoDB returned it with the failure
	// (ReturnValuesOnConditionCheckFailure=ALL_OLD); nil when none was.
	Item map[string]types.AttributeValue
	// Attempts is the number of attempts [Entity.Modify] made before it
	// gave up; 0 for the other operations.
	Attempts int
	// Failed is, for a partial update ([Entity.Update]) refused by a
	// condition ([ErrConditionFailed]), the part of it that the stored
	// item does not meet, as written ("Stock >= 1"); a field's limit
	// that an Add would cross is one too ("Stock <= 2147483646").
	Failed string
}

// Error describes the failure with its facts.
func (e *ConditionError) Error() string {
	var b strings.Builder
	b.WriteString(e.Err.Error())
	switch {
	case errors.Is(e.Err, ErrVersionConflict) && !e.Versioned:
		b.WriteString(": the stored item changed since it was read")
	case errors.Is(e.Err, ErrVersionConflict) && e.Found:
		fmt.Fprintf(&b, ": expected version %d, stored version %d", e.Expected, e.Actual)
	case errors.Is(e.Err, ErrVersionConflict):
		fmt.Fprintf(&b, ": expected version %d, no item stored", e.Expected)
	case errors.Is(e.Err, ErrWrongEntityType):
		fmt.Fprintf(&b, ": stored item is a %q", e.FoundType)
	case errors.Is(e.Err, ErrConditionUnexplained) && e.Versioned:
		fmt.Fprintf(&b, ": the stored item has the version read (%d), so no other writer caused it", e.Actual)
	case errors.Is(e.Err, ErrConditionUnexplained):
		b.WriteString(": every attribute the condition compares is as read, so no other writer caused it")
	}
	if e.Failed != "" {
		fmt.Fprintf(&b, ": %s does not hold on the stored item", e.Failed)
	}
	switch {
	case e.Attempts == 1:
		b.WriteString(" (1 attempt)")
	case e.Attempts > 1:
		fmt.Fprintf(&b, " (%d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap returns the sentinel.
func (e *ConditionError) Unwrap() error { return e.Err }

// KeyChangedError reports a modification that changed the primary key. It
// wraps [ErrKeyChanged].
type KeyChangedError struct {
	Old, New string // the keys, as [Key.String] prints them
}

// Error describes the failure with its facts.
func (e *KeyChangedError) Error() string {
	return fmt.Sprintf("%v: from %s to %s; write the new item with Put and delete the old one", ErrKeyChanged, e.Old, e.New)
}

// Unwrap returns [ErrKeyChanged].
func (e *KeyChangedError) Unwrap() error { return ErrKeyChanged }

// DuplicateKeyError reports two requests of one batch with the same key. It
// wraps [ErrDuplicateKey].
type DuplicateKeyError struct {
	Key           string // the key, as [Key.String] prints it
	First, Second int    // the positions of the two requests
}

// Error describes the failure with its facts.
func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("%v: %s at positions %d and %d", ErrDuplicateKey, e.Key, e.First, e.Second)
}

// Unwrap returns [ErrDuplicateKey].
func (e *DuplicateKeyError) Unwrap() error { return ErrDuplicateKey }

// OpError reports a failed request: which operation, on which entity and
// key, and why (a [*ConditionError], [ErrNotFound], or the SDK's error).
type OpError struct {
	Op     string // the operation: "Put", "Get", "Replace", "Modify", "Delete"
	Entity string // the entity-type name
	Key    string // the key, as [Key.String] prints it
	Err    error  // the cause
}

// Error describes the failure with its facts.
func (e *OpError) Error() string {
	return fmt.Sprintf("keyfirst: %s %s %s: %v", e.Op, e.Entity, e.Key, e.Err)
}

// Unwrap returns the cause.
func (e *OpError) Unwrap() error { return e.Err }

// PatternProblem says what is wrong with a [Pattern] or a value given to it.
type PatternProblem uint8

// The problems of [PatternError].
const (
	PatternZero  PatternProblem = iota + 1 // the zero Pattern
	PatternSide                            // a Side that cannot be used (see Detail and Err)
	PatternValue                           // a key value the pattern's codec refuses (see Err)
)

var patternProblemText = map[PatternProblem]string{
	PatternZero:  "zero pattern",
	PatternSide:  "invalid key side",
	PatternValue: "invalid key value",
}

// String describes the problem.
func (p PatternProblem) String() string { return errfmt.ProblemText(patternProblemText, p) }

// PatternError reports a [Pattern] that cannot be used, or a key value its
// codecs refuse. It wraps [ErrInvalidPattern] and, when there is one, the
// cause (a keys codec's error, so errors.Is(err, keys.ErrSeparator) holds).
type PatternError struct {
	Index   string         // the pattern's index, "" for the table
	Problem PatternProblem // what is wrong
	Detail  string         // the facts
	Err     error          // the cause, if any
}

// Error describes the failure with its facts.
func (e *PatternError) Error() string {
	return errfmt.Describe(ErrInvalidPattern, e.Problem.String(), errfmt.Detail(e.Detail, e.Err), "index", e.Index)
}

// Unwrap returns [ErrInvalidPattern] and the cause.
func (e *PatternError) Unwrap() []error { return errfmt.Causes(ErrInvalidPattern, e.Err) }
