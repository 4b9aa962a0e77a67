package bss

// Counts are a BSS's own admission counters, beside the radio's totals
// (package counter): what it answered and whom it took in. Each is counted
// where the BSS does the thing, so the BSSes' figures add up to the
// radio's.
type Counts struct {
	ProbeResponses uint64 // probe responses it sent
	AuthResponses  uint64 // authentication responses, SAE's frames included
	AssocResponses uint64 // (re)association responses, refusals included
	Associations   uint64 // stations that became associated
	Deauths        uint64 // deauthentications it sent, and its replies to strangers' class 2 and 3 frames
	ACLDenied      uint64 // authentications and associations its access lists refused
}
