// Package itemsize computes an item's size as DynamoDB counts it, for
// capacity and for the 400 KB item limit, and parses DynamoDB's numbers,
// whose stored size depends on their digits.
//
// # Sizes
//
// [ItemSize] is the size of an item, [Size] that of one attribute (name and
// value). Both are exact: the rules were checked value by value against
// DynamoDB Local (sparse's TestItemSizeMatchesDynamoDBLocal).
//
// # Numbers
//
// [ParseDecimal] parses a number and refuses what DynamoDB refuses (bad
// syntax, more than 38 significant digits, a magnitude outside 1E-130 to
// below 1E+126). A [Decimal] knows its stored size ([Decimal.Size]), its
// canonical text ([Decimal.Canonical]) and whether it equals another
// ([Decimal.Equal]): "1.0" is "1".
//
// Both the root package (which refuses items over 400 KB and invalid
// number keys) and sparse (which estimates write costs) use this package.
package itemsize
