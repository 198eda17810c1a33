// Package random is the built-in provider registry.opentofu.org/hashicorp/random.
// It stands for hashicorp/random v3.7.2: the same resource types
// (random_bytes, random_id, random_integer, random_password, random_pet,
// random_shuffle, random_string, random_uuid), attributes, schema
// versions and import ID formats, so a state written by either works with
// the other.
//
// Values are chosen at apply (unknown in the first plan) with crypto/rand
// and then kept; any argument change replaces the resource, except a
// keepers change in null entries only, which is an in-place update.
// A seed on random_integer or random_shuffle gives the numbers and orders
// hashicorp/random gives for it: Go's math/rand seeded with the CRC-64
// (ISO) checksum of the seed text.
//
// random_pet names have the real provider's shape (adverbs, an adjective,
// an animal) but come from tenet's own, smaller word lists.
//
// Not provided: the random_uuid4 and random_uuid7 resources of
// hashicorp/random 3.8 and its ephemeral resources.
package random
