package ap

import "time"

// BeaconStats measure how far beacons fall from their target beacon
// transmission times: an injected beacon is an ordinary frame with no TBTT
// timer behind it, so the core emits it when its loop gets to it and the
// radio sends it when the VO queue and the medium let it.
type BeaconStats struct {
	Emitted         uint64
	EmitLateSum     time.Duration // emit time - TBTT, summed
	EmitLateMax     time.Duration
	Echoed          uint64
	EchoLateSum     time.Duration // TX-status echo time - TBTT, summed
	EchoLateMax     time.Duration
	MissedIntervals uint64 // TBTTs skipped because the core ran too late
}

// Beacons returns the beacon timing statistics.
func (a *AP) Beacons() BeaconStats { return a.beacons }

func (b *BeaconStats) emitted(late time.Duration) {
	b.Emitted++
	b.EmitLateSum += late
	b.EmitLateMax = max(b.EmitLateMax, late)
}

func (b *BeaconStats) echoed(late time.Duration) {
	b.Echoed++
	b.EchoLateSum += late
	b.EchoLateMax = max(b.EchoLateMax, late)
}
