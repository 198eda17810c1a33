package provenance

// Rule is one rule's part in a decision.
type Rule struct {
	// RuleID is the rule's METADATA custom.id, or "team:FILE:LINE" for a
	// team rule without one.
	RuleID string `json:"id"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Title  string `json:"title,omitempty"`
	// Message is what a team extension-point rule said (e.g. why it
	// forces a replacement); empty for default rules.
	Message string `json:"message,omitempty"`
}
