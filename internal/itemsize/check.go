package itemsize

import (
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Reason says why DynamoDB would refuse or change a value.
type Reason uint8

// The reasons of [InvalidError].
const (
	// BadUTF8: a string, set element or map key that is not valid UTF-8.
	// The SDK sends each invalid byte as U+FFFD, so DynamoDB would store
	// (and match, as a key) another string than the one given.
	BadUTF8 Reason = iota + 1
	// BadNumber: a number DynamoDB refuses (syntax, NaN or an infinity,
	// more than 38 significant digits, a magnitude outside 1E-130 to below
	// 1E+126).
	BadNumber
	// BadSet: a string, number or binary set that is empty or holds one
	// element twice (numbers compared by value: "1" and "1.0" are one).
	BadSet
	// TooDeep: lists and maps nested beyond [MaxNesting] levels.
	TooDeep
)

// MaxNesting is the most levels of nesting DynamoDB takes, the item being
// the first: an attribute's value holds at most MaxNesting-1 lists and
// maps one inside the other, and a value of an expression, outside any
// item, MaxNesting. A set is no level. Measured on DynamoDB Local 3.3.1
// with the raw SDK: an item with 31 nested lists (or maps, or 31 lists
// around a string set) is stored and one with 32 refused ("Nesting Levels
// have exceeded supported limits"); a condition value of 32 passes and one
// of 33 is refused ("ExpressionAttributeValues contains invalid value").
const MaxNesting = 32

// InvalidError reports the first part of an attribute's value that
// DynamoDB would refuse or change.
type InvalidError struct {
	Attribute string // the attribute's name
	// Path leads from the attribute to the bad part: "[i]" for an element
	// of a list or set, ".k" for the entry k of a map (a key that is not
	// a plain name is quoted: .["a b"]); empty for the attribute's value
	// itself, or for a bad map key of the attribute's map.
	Path   string
	Value  string // the bad string, map key or number text
	Key    bool   // Value is a map key
	Reason Reason
	Why    string // for a number or a set, why it is refused
}

// Where is the attribute name followed by the path.
func (e *InvalidError) Where() string { return e.Attribute + e.Path }

// Error describes what is wrong and where.
func (e *InvalidError) Error() string {
	where := ""
	if w := e.Where(); w != "" {
		where = w + ": "
	}
	what := "value"
	if e.Key {
		what = "map key"
	}
	switch e.Reason {
	case BadNumber:
		return fmt.Sprintf("%snumber %q: %s", where, e.Value, e.Why)
	case BadSet, TooDeep:
		return where + e.Why
	}
	return fmt.Sprintf("%s%s %q is not valid UTF-8 (the SDK would send each invalid byte as U+FFFD)", where, what, e.Value)
}

// ParseNumber is [ParseDecimal] reporting a number DynamoDB refuses as an
// [*InvalidError] that says why.
func ParseNumber(s string) (Decimal, error) {
	d, why := parseDecimal(s)
	if why != "" {
		return d, &InvalidError{Value: s, Reason: BadNumber, Why: why}
	}
	return d, nil
}

// Check returns [Size](name, av) and, when a part of av is something
// DynamoDB would refuse or store changed, an [*InvalidError] naming it.
// av is the value of the attribute name of an item: it is at the second
// level of nesting ([MaxNesting]). Check does not check name itself:
// names are checked once, where they are defined.
//
// Check and [CheckExpressionValue] are the one check of every value
// keyfirst sends: the attributes of an item (the codec checks each
// field), and the values of its expressions (conditions, updates).
func Check(name string, av types.AttributeValue) (int, error) {
	n, bad := measure(av, true, 1)
	if bad != nil {
		bad.Attribute = name
		return 0, bad
	}
	return len(name) + n, nil
}

// CheckExpressionValue is [Check] for a value of an expression
// (ExpressionAttributeValues: the operand of a condition, the value of
// an update's SET), which DynamoDB checks outside any item: it may hold
// one level of nesting more than an attribute. The value of a SET
// becomes an attribute, so check it with Check as well, under its name,
// where it is made. The error's Attribute is empty.
func CheckExpressionValue(av types.AttributeValue) error {
	if _, bad := measure(av, true, 0); bad != nil {
		return bad
	}
	return nil
}

// measure returns the size of av, at the given level of nesting (the
// levels of lists and maps around it, the item counting as one). When
// strict, it stops at the first part DynamoDB would refuse or change and
// reports it; otherwise it counts an invalid number as if each of its
// digits were significant, and ignores the nesting.
func measure(av types.AttributeValue, strict bool, level int) (int, *InvalidError) {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return stringSize(x.Value, strict)
	case *types.AttributeValueMemberN:
		return numberSize(x.Value, strict)
	case *types.AttributeValueMemberB:
		return len(x.Value), nil
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1, nil
	case *types.AttributeValueMemberSS:
		return set(x.Value, strict, stringSize, func(s string) string { return s })
	case *types.AttributeValueMemberNS:
		return set(x.Value, strict, numberSize, NumberKey)
	case *types.AttributeValueMemberBS:
		return set(x.Value, strict, func(b []byte, _ bool) (int, *InvalidError) { return len(b), nil },
			func(b []byte) string { return string(b) })
	case *types.AttributeValueMemberL:
		if strict && level >= MaxNesting {
			return 0, tooDeep()
		}
		n := 3 + len(x.Value) // 1 byte per element
		for i, e := range x.Value {
			m, bad := measure(e, strict, level+1)
			if bad != nil {
				bad.Path = index(i) + bad.Path
				return 0, bad
			}
			n += m
		}
		return n, nil
	case *types.AttributeValueMemberM:
		if strict && level >= MaxNesting {
			return 0, tooDeep()
		}
		n := 3
		for k, e := range x.Value {
			if strict && !ValidString(k) {
				return 0, &InvalidError{Value: k, Key: true, Reason: BadUTF8}
			}
			m, bad := measure(e, strict, level+1)
			if bad != nil {
				bad.Path = entry(k) + bad.Path
				return 0, bad
			}
			n += 1 + len(k) + m
		}
		return n, nil
	}
	return 0, nil
}

// tooDeep is the error of a list or map at the last level DynamoDB takes.
func tooDeep() *InvalidError {
	return &InvalidError{Reason: TooDeep, Why: fmt.Sprintf("lists and maps nested deeper than DynamoDB takes: "+
		"%d levels, the item being the first (an attribute's value holds %d lists and maps one inside the other, "+
		"a condition's value %d)", MaxNesting, MaxNesting-1, MaxNesting)}
}

// set is elements for a set, which DynamoDB refuses empty or with an
// element twice (as it compares them: by the canonical text of a number,
// the bytes of a string or binary, given by same).
func set[E any](es []E, strict bool, size func(E, bool) (int, *InvalidError), same func(E) string) (int, *InvalidError) {
	n, bad := elements(es, strict, size)
	if bad != nil || !strict {
		return n, bad
	}
	if len(es) == 0 {
		return 0, &InvalidError{Reason: BadSet, Why: "an empty set: DynamoDB stores no empty set; leave the attribute out (omitempty)"}
	}
	seen := make(map[string]int, len(es))
	for i, e := range es {
		k := same(e)
		if j, dup := seen[k]; dup {
			return 0, &InvalidError{Path: index(i), Reason: BadSet,
				Why: fmt.Sprintf("the set holds element %d again (%q): DynamoDB refuses a set with duplicates", j, k)}
		}
		seen[k] = i
	}
	return n, nil
}

// elements adds the sizes of the elements of a set or list; the first bad
// one is reported with its index on its path.
func elements[E any](es []E, strict bool, size func(E, bool) (int, *InvalidError)) (int, *InvalidError) {
	n := 0
	for i, e := range es {
		m, bad := size(e, strict)
		if bad != nil {
			bad.Path = index(i) + bad.Path
			return 0, bad
		}
		n += m
	}
	return n, nil
}

// stringSize is the size of s, an error when strict and s is not valid
// UTF-8.
func stringSize(s string, strict bool) (int, *InvalidError) {
	if strict && !ValidString(s) {
		return 0, &InvalidError{Value: s, Reason: BadUTF8}
	}
	return len(s), nil
}

// numberSize is the stored size of the number s. An invalid number is an
// error when strict, and otherwise counts every digit as significant.
func numberSize(s string, strict bool) (int, *InvalidError) {
	d, why := parseDecimal(s)
	if why == "" {
		return d.Size(), nil
	}
	if strict {
		return 0, &InvalidError{Value: s, Reason: BadNumber, Why: why}
	}
	digits := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			digits++
		}
	}
	return (digits+1)/2 + 1, nil
}

func index(i int) string { return "[" + strconv.Itoa(i) + "]" }

// entry is the path step to map entry k: .k, or .["k"] for a key that is
// not a plain name (letters, digits, '_', '-').
func entry(k string) string {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return ".[" + strconv.Quote(k) + "]"
		}
	}
	if k == "" {
		return `.[""]`
	}
	return "." + k
}
