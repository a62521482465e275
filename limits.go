package keyfirst

import (
	"fmt"
	"strings"
)

// DynamoDB's limits on the expressions of one request. Measured on DynamoDB
// Local (TestExpressionLimitsAsDynamoDB) as the AWS documentation states
// them: an expression string of 4,096 bytes is accepted, one of 4,097 is
// not; a condition of 300 operators is accepted, one of 301 is not.
const (
	// maxExpressionBytes is the largest expression string DynamoDB
	// accepts (condition, update or other), in bytes.
	maxExpressionBytes = 4096
	// maxExpressionOperators is the largest number of operators and
	// functions DynamoDB accepts in one condition expression.
	maxExpressionOperators = 300
)

// countOperators counts the operators of a condition expression as
// DynamoDB does: each comparator (= <> < <= > >=), AND, OR, NOT, IN,
// BETWEEN (whose AND is part of it) and function call counts one;
// parentheses, commas, names and values count nothing. The expression is
// one the expression package built: names and values are placeholders.
func countOperators(cond string) int {
	n, between := 0, false
	for i := 0; i < len(cond); {
		for i < len(cond) && isOperatorSep(cond[i]) {
			i++
		}
		j := i
		for j < len(cond) && !isOperatorSep(cond[j]) {
			j++
		}
		if j == i {
			break
		}
		tok := cond[i:j]
		i = j
		switch {
		case tok[0] == '#' || tok[0] == ':':
		case between && strings.EqualFold(tok, "AND"):
			between = false
		case strings.EqualFold(tok, "BETWEEN"):
			between = true
			n++
		default: // comparators, AND, OR, NOT, IN, function names
			n++
		}
	}
	return n
}

// isOperatorSep reports the bytes that separate the tokens of a
// condition for countOperators (ASCII: no byte of a multi-byte UTF-8
// character is one).
func isOperatorSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '(' || c == ')' || c == ','
}

// checkExpressions refuses, before the request, an UpdateItem whose
// expressions DynamoDB would refuse. keyfirst's update expressions hold
// SET and REMOVE actions only, which DynamoDB does not count as operators
// (an update of 382 SET actions passes on DynamoDB Local): only their
// length can exceed a limit.
func (e *Entity[T]) checkExpressions(op string, x built) error {
	return e.checkExpressionTexts(op, x.Update(), x.Condition())
}

// checkExpressionTexts is [Entity.checkExpressions] of the update
// expression u and the condition c (nil: none).
func (e *Entity[T]) checkExpressionTexts(op string, u, c *string) error {
	fail := func(detail string) error {
		return &ItemError{Entity: e.typeName, Problem: ItemExpression, Detail: detail}
	}
	if u != nil && len(*u) > maxExpressionBytes {
		return fail(fmt.Sprintf("the update expression is %d bytes, DynamoDB allows %d: the item has too many attributes for one UpdateItem; write it with Put",
			len(*u), maxExpressionBytes))
	}
	if c == nil {
		return nil
	}
	ops := countOperators(*c)
	if ops <= maxExpressionOperators && len(*c) <= maxExpressionBytes {
		return nil
	}
	detail := fmt.Sprintf("the condition has %d operators in %d bytes, DynamoDB allows %d operators and %d bytes",
		ops, len(*c), maxExpressionOperators, maxExpressionBytes)
	if (op == "Modify" || op == "Refresh") && e.version == "" {
		detail = fmt.Sprintf("%s's guard compares the %d attributes the entity reads and writes: %s; declare EntitySpec.Version to guard %s with one attribute",
			op, len(e.guarded), detail, op)
	}
	return fail(detail)
}
