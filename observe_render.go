package keyfirst

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// RenderExpression returns the expression x of a request with its
// placeholders (#0, :0) replaced by the names and values they stand for,
// the values as [RenderValue] shows them: what DynamoDB evaluates, for an
// [Observer] to print. Whitespace runs print as one space.
func RenderExpression(x *string, names map[string]string, values map[string]types.AttributeValue) string {
	s := strings.Join(strings.Fields(aws.ToString(x)), " ")
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '#' && s[i] != ':' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i + 1
		for j < len(s) && placeholderByte(s[j]) {
			j++
		}
		p := s[i:j]
		if n, ok := names[p]; ok {
			b.WriteString(n)
		} else if v, ok := values[p]; ok {
			b.WriteString(RenderValue(v))
		} else {
			b.WriteString(p)
		}
		i = j
	}
	return b.String()
}

func placeholderByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// RenderValue shows an attribute value as the AWS CLI's JSON shows its
// content: a string quoted, a number as it is, binary in base64, a list,
// map or set in brackets.
func RenderValue(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value)
	case *types.AttributeValueMemberNULL:
		return "null"
	case *types.AttributeValueMemberM:
		return RenderItem(v.Value)
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = RenderValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *types.AttributeValueMemberSS:
		return fmt.Sprintf("%q", v.Value)
	case *types.AttributeValueMemberNS:
		return fmt.Sprint(v.Value)
	}
	return fmt.Sprintf("%T", av)
}

// RenderItem shows an item or a key, its attributes in name order, each
// value as [RenderValue] shows it: {PK: "ORG#acme", SK: "USER#ann"}.
func RenderItem(item map[string]types.AttributeValue) string {
	names := make([]string, 0, len(item))
	for n := range item {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + RenderValue(item[n])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
