package sparse

import (
	"errors"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// The sentinel errors of the package. Match them with [errors.Is]; the typed
// errors that wrap them carry the facts and are matched with [errors.As].
var (
	// ErrInvalidRule: a membership rule cannot work as declared (see
	// [RuleError]). It is reported when the rule is applied to a table,
	// before any entity exists and long before any request.
	ErrInvalidRule = errors.New("sparse: invalid membership rule")
	// ErrCannotEstimate: the images given to [Estimator.Estimate] are not
	// a write DynamoDB would accept (see [EstimateError]).
	ErrCannotEstimate = errors.New("sparse: cannot estimate the write")
)

// RuleProblem says which requirement a membership rule breaks.
type RuleProblem uint8

// The problems of [RuleError].
const (
	RuleNoTable        RuleProblem = iota + 1 // the table is nil
	RuleNoIndex                               // the rule names no index (the table's own key cannot be sparse)
	RuleUnknownIndex                          // the table has no index of that name
	RuleNoPredicate                           // the predicate is nil
	RuleNoKeys                                // the rule derives no key attribute, so it can take no item out
	RuleNoValue                               // a key attribute with a nil or zero Value
	RuleNotIndexKey                           // the attribute is not a key attribute of the index
	RulePrimaryKey                            // the attribute is a key of the table, present on every item
	RuleDuplicateKey                          // the rule derives one attribute twice
	RuleKeyType                               // the value's type is not the attribute's (S, N or B)
	RuleEmptyValue                            // a fixed value that is empty, which DynamoDB refuses as a key
	RuleValueTooLong                          // a fixed value longer than DynamoDB's key limit
	RuleDuplicateIndex                        // two rules for one index
	RuleIndexTaken                            // the entity spec derives the index's keys already
)

var ruleProblemText = map[RuleProblem]string{
	RuleNoTable:        "no table",
	RuleNoIndex:        "no index",
	RuleUnknownIndex:   "unknown index",
	RuleNoPredicate:    "no predicate",
	RuleNoKeys:         "no key attribute",
	RuleNoValue:        "no value",
	RuleNotIndexKey:    "attribute is not a key of the index",
	RulePrimaryKey:     "attribute is a key of the table",
	RuleDuplicateKey:   "attribute derived twice",
	RuleKeyType:        "value of the wrong type",
	RuleEmptyValue:     "empty key value",
	RuleValueTooLong:   "key value too long",
	RuleDuplicateIndex: "two rules for one index",
	RuleIndexTaken:     "index already derived by the entity",
}

// String describes the problem.
func (p RuleProblem) String() string { return errfmt.ProblemText(ruleProblemText, p) }

// RuleError reports a membership rule that cannot work: which index, which
// attribute, what is wrong and what to do instead. It wraps
// [ErrInvalidRule].
type RuleError struct {
	Index     string      // the rule's index
	Attribute string      // the key attribute concerned, if any
	Problem   RuleProblem // what is wrong
	Detail    string      // the facts, and what to do instead
}

func (e *RuleError) Error() string {
	return errfmt.Describe(ErrInvalidRule, e.Problem.String(), e.Detail, "index", e.Index, "attribute", e.Attribute)
}

// Unwrap returns [ErrInvalidRule].
func (e *RuleError) Unwrap() error { return ErrInvalidRule }

// EstimateProblem says why a write cannot be estimated.
type EstimateProblem uint8

// The problems of [EstimateError].
const (
	EstimateNoTable     EstimateProblem = iota + 1 // the table is nil
	EstimateNoImage                                // both images are nil: there is no write
	EstimateMissingKey                             // an image lacks a primary key attribute
	EstimateKeyMismatch                            // before and after have different primary keys
	EstimateKeyType                                // a key attribute (table or index) has the wrong type
	EstimateEmptyKey                               // a key attribute is an empty string or binary
	EstimateBadNumber                              // a number is not a valid DynamoDB number
	EstimateBadString                              // a string, set element or map key is not valid UTF-8
	EstimateBadSet                                 // a set is empty or holds an element twice
	EstimateTooLarge                               // an image exceeds DynamoDB's 400 KB item limit
	EstimateOtherTable                             // the entity belongs to another table than the estimator's
	EstimateItem                                   // the entity could not build the item (see Err)
)

var estimateProblemText = map[EstimateProblem]string{
	EstimateNoTable:     "no table",
	EstimateNoImage:     "no image",
	EstimateMissingKey:  "primary key attribute missing",
	EstimateKeyMismatch: "before and after are different items",
	EstimateKeyType:     "key attribute of the wrong type",
	EstimateEmptyKey:    "empty key attribute",
	EstimateBadNumber:   "invalid number",
	EstimateBadString:   "invalid UTF-8",
	EstimateBadSet:      "invalid set",
	EstimateTooLarge:    "item larger than 400 KB",
	EstimateOtherTable:  "entity of another table",
	EstimateItem:        "cannot build the item",
}

// String describes the problem.
func (p EstimateProblem) String() string { return errfmt.ProblemText(estimateProblemText, p) }

// EstimateError reports images that are not a write DynamoDB would accept,
// so no estimate of its cost would mean anything. It wraps
// [ErrCannotEstimate] and, when there is one, the cause (a
// [github.com/keyfirst/keyfirst.ItemError] of the entity).
type EstimateError struct {
	Image     string          // "before" or "after", when one image is concerned
	Index     string          // the index whose key is concerned, if any
	Attribute string          // the attribute concerned, if any
	Problem   EstimateProblem // what is wrong
	Detail    string          // the facts
	Err       error           // the cause, if any
}

func (e *EstimateError) Error() string {
	return errfmt.Describe(ErrCannotEstimate, e.Problem.String(), errfmt.Detail(e.Detail, e.Err),
		"image", e.Image, "index", e.Index, "attribute", e.Attribute)
}

// Unwrap returns [ErrCannotEstimate] and the cause.
func (e *EstimateError) Unwrap() []error { return errfmt.Causes(ErrCannotEstimate, e.Err) }
