package random

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tenetplan/tenet/providers"
	"github.com/tenetplan/tenet/providers/builtin/internal/kit"
)

var petDefaults = map[string]cty.Value{
	"length":    cty.NumberIntVal(2),
	"separator": cty.StringVal("-"),
}

var petSchema = &providers.Block{
	Description: "A random, readable pet name such as \"gentle-otter\".",
	Attributes: map[string]*providers.Attribute{
		"keepers":   keepersAttribute,
		"length":    {Type: cty.Number, Optional: true, Computed: true, Description: "How many words (default 2)."},
		"separator": {Type: cty.String, Optional: true, Computed: true, Description: `The text between words (default "-").`},
		"prefix":    {Type: cty.String, Optional: true, Description: "A first word put before the generated ones."},
		"id":        {Type: cty.String, Computed: true, Description: "The generated name."},
	},
}

var petAdjectives = strings.Fields(`
	able bold brave bright brisk calm clever cosy crisp curious daring eager fair fancy fond
	gentle glad golden grand happy hardy honest humble jolly keen kind lively loyal lucky merry
	mighty modest neat nimble noble patient plucky polite proud quick quiet rapid ready shy
	sincere snug steady sunny swift tender tidy vivid warm witty`)

var petAnimals = strings.Fields(`
	badger bat beaver bison boar camel cat cobra crane deer dingo dolphin donkey eagle eel
	falcon ferret finch fox frog gecko goat goose hare hawk heron ibis jackal koala lemur
	lion llama lynx marten mole moose newt otter owl panda parrot pelican puffin quail
	rabbit raven salmon seal sloth stork swan tapir toad trout walrus whale wombat yak zebra`)

func validatePet(config cty.Value) providers.Diagnostics {
	var diags providers.Diagnostics
	if v, ok := kit.Known(config, "length"); ok {
		if n, isInt := kit.Int(config, "length"); !isInt || n < 1 || n > 64 {
			diags = diags.Errorf(cty.GetAttrPath("length"), "Invalid length",
				fmt.Sprintf("length must be a whole number of words between 1 and 64, not %s.", v.AsBigFloat().String()))
		}
	}
	return diags
}

var petAdverbs = strings.Fields(`
	boldly briefly calmly closely deeply eagerly easily fairly freely gently gladly
	greatly highly kindly largely lightly loudly merely mostly neatly nearly openly
	partly plainly quickly quietly rarely really simply slowly softly surely
	truly vastly warmly wildly wisely`)

// petList gives the word list for word i of an n-word name, in the shape
// hashicorp/random's names have: one word is an animal, two are an
// adjective and an animal, more start with adverbs.
func petList(i, n int64) []string {
	switch {
	case i == n-1:
		return petAnimals
	case i == n-2:
		return petAdjectives
	default:
		return petAdverbs
	}
}

// applyPet builds the name, after the prefix when there is one.
func applyPet(planned cty.Value) (cty.Value, providers.Diagnostics) {
	n, _ := kit.Int(planned, "length")
	words := make([]string, 0, n+1)
	if prefix := kit.String(planned, "prefix"); prefix != "" {
		words = append(words, prefix)
	}
	for i := int64(0); i < n; i++ {
		list := petList(i, n)
		j, err := randIntn(len(list))
		if err != nil {
			return cty.NilVal, randomFailed(err)
		}
		words = append(words, list[j])
	}
	name := strings.Join(words, kit.String(planned, "separator"))
	return withValues(planned, map[string]cty.Value{"id": cty.StringVal(name)}), nil
}
