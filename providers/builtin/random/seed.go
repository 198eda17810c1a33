package random

import (
	"hash/crc64"
	"math/rand"
)

// seededRand is the generator hashicorp/random uses for a seed: Go's
// math/rand source seeded with the CRC-64 (ISO table) of the seed text.
// Keeping to it makes seeded random_integer and random_shuffle results
// the same in either tool.
func seededRand(seed string) *rand.Rand {
	sum := crc64.Checksum([]byte(seed), crc64.MakeTable(crc64.ISO))
	return rand.New(rand.NewSource(int64(sum)))
}
