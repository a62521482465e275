package sparse

import (
	"errors"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// ErrCannotEstimate is the sentinel error of the package: the images given
// to [Estimator.Estimate] are not a write DynamoDB would accept. Match it
// with [errors.Is]; the [*EstimateError] that wraps it carries the facts
// and is matched with [errors.As].
var ErrCannotEstimate = errors.New("sparse: cannot estimate the write")

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
