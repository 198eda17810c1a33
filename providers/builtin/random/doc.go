// Package random is the built-in provider registry.opentofu.org/hashicorp/random:
// random_id, random_string, random_password, random_integer and random_pet.
// Values are chosen at apply (unknown in the first plan) with crypto/rand
// and then kept; any argument change, keepers included, replaces the
// resource.
package random
