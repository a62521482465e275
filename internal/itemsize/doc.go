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
// canonical text, the one DynamoDB stores and returns ([Decimal.Canonical]:
// "1.50e2" is "150", "-0" is "0"), and whether it equals another
// ([Decimal.Equal]).
//
// # Values DynamoDB would refuse or change
//
// [Check] is [Size] that also reports, as an [*InvalidError] with the path
// to it, the first part of a value DynamoDB would refuse (an invalid
// number, an empty set or one with an element twice, lists and maps
// nested beyond [MaxNesting] levels, anywhere: sets, lists, maps) or
// store changed (a string, set element or map key that is not valid
// UTF-8, which the SDK sends with U+FFFD for each invalid byte). Every
// write of the root package checks its item with it, so the check costs
// one pass over the strings (the codec computes the sizes of the values
// whose kind leaves nothing else to check, to the byte Check's: an
// integer's with [IntegerSize]). [CheckExpressionValue] is the same check for
// a value of an expression (a condition's operand), which DynamoDB takes
// one level deeper: every expression the root package sends is checked
// with it.
//
// Both the root package (which refuses items over 400 KB and invalid
// values, and keeps number keys in canonical form) and sparse (which
// estimates write costs) use this package.
package itemsize
