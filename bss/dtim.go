package bss

// DTIM counts a BSS's beacons down to the next DTIM beacon, as the TIM
// element's DTIM Count field announces it: 0 at a DTIM beacon. The zero
// value makes the first beacon a DTIM.
type DTIM struct{ count int }

// Count is the DTIM Count of the next beacon.
func (d *DTIM) Count() int { return d.count }

// Beaconed moves to the beacon after the one just sent, with period
// beacons per DTIM.
func (d *DTIM) Beaconed(period int) {
	if d.count == 0 {
		d.count = period
	}
	d.count--
}
