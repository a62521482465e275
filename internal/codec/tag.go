package codec

import (
	"reflect"
	"strings"
)

// tag is a parsed `dynamodbav` struct tag, with the options of the
// attributevalue package.
type tag struct {
	name          string
	ignore        bool
	omitEmpty     bool
	omitEmptyElem bool
	nullEmpty     bool
	nullEmptyElem bool
	asString      bool
	binarySet     bool
	numberSet     bool
	stringSet     bool
	unixTime      bool
	raw           string // the options after the name, as written
}

// parseTag reads the dynamodbav tag of a struct field.
func parseTag(st reflect.StructTag) tag {
	s, ok := st.Lookup("dynamodbav")
	if !ok || s == "" {
		return tag{}
	}
	name, opts, _ := strings.Cut(s, ",")
	t := tag{name: name, raw: opts}
	if name == "-" {
		return tag{ignore: true}
	}
	for opt := range strings.SplitSeq(opts, ",") {
		switch opt {
		case "omitempty":
			t.omitEmpty = true
		case "omitemptyelem":
			t.omitEmptyElem = true
		case "nullempty":
			t.nullEmpty = true
		case "nullemptyelem":
			t.nullEmptyElem = true
		case "string":
			t.asString = true
		case "binaryset":
			t.binarySet = true
		case "numberset":
			t.numberSet = true
		case "stringset":
			t.stringSet = true
		case "unixtime":
			t.unixTime = true
		}
	}
	return t
}
