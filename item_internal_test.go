package keyfirst

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestAVTypeName(t *testing.T) {
	for av, want := range map[types.AttributeValue]string{
		&types.AttributeValueMemberS{}: "S", &types.AttributeValueMemberN{}: "N", &types.AttributeValueMemberB{}: "B",
		&types.AttributeValueMemberBOOL{}: "BOOL", &types.AttributeValueMemberNULL{}: "NULL", &types.AttributeValueMemberL{}: "L",
		&types.AttributeValueMemberM{}: "M", &types.AttributeValueMemberSS{}: "SS", &types.AttributeValueMemberNS{}: "NS",
		&types.AttributeValueMemberBS{}: "BS", &types.UnknownUnionMember{}: "*types.UnknownUnionMember",
	} {
		if got := avTypeName(av); got != want {
			t.Errorf("%T: %q", av, got)
		}
	}
	if avTypeName(nil) != "nothing" {
		t.Error("nil")
	}
}
