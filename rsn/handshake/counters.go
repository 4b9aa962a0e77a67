package handshake

// Counters counts the EAPOL frames a side received, by what became of
// them: frames from the air are counted and dropped, never trusted.
type Counters struct {
	Accepted  uint64 // passed every check and drove the machines
	Malformed uint64 // not an EAPOL-Key frame with all its fields, or an SMK message
	Version   uint64 // key descriptor version other than the AKM's
	Replayed  uint64 // a replay counter the receiver does not expect
	State     uint64 // a message the machines are not waiting for, or with the wrong flags
	MIC       uint64 // MIC did not verify
	KeyData   uint64 // key data that would not decrypt (supplicant)

	// Messages 2 not checked against the PMKs (authenticator, budget.go):
	Message2Repeated      uint64 // the replay counter, SNonce and MIC of one that failed
	Message2StationBudget uint64 // beyond the station's checks for the message 1 it answers
	Message2WorkBudget    uint64 // beyond the BSS's PMK tries per second

	// Of the accepted requests (authenticator), those not acted on:
	MICFailureReports    uint64 // Michael MIC failure reports (Error bit): CCMP has no Michael
	RekeyRequestsIgnored uint64 // GTK rekey requests while one is under way or within 10 s of the last
}

// Counters returns the authenticator's counts over all its stations.
func (a *Authenticator) Counters() Counters { return a.cnt }

// Counters returns the supplicant's counts.
func (s *Supplicant) Counters() Counters { return s.cnt }
