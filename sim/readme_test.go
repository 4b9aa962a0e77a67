package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/internal/readmetest"
	"github.com/airq/airq/scan"
)

// The two trip limits make bench-scan prints (TestScanStudy's, retunes of
// studyRetune; TestScanCost's, planned at costRetune plus costJitter) are
// the planner's for the US plan around channel 36 with 100 TU beacons, as
// the README quotes them; the longer figures of make bench-scan are held
// to the README when it runs them (-scan.long).
func TestREADMETripLimits(t *testing.T) {
	limit := func(retune time.Duration) string {
		pl, err := scan.New(scan.Config{Channels: USChannels(), Home: 5180, BeaconInterval: 100 * 1024 * time.Microsecond, Retune: retune})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%.1f", ms(pl.Limit()))
	}
	readmetest.Check(t, `prints a trip limit of ([\d.]+) ms for retunes of (\d+) ms \(([\d.]+) ms where they take up to (\d+) ms`,
		limit(studyRetune), fmt.Sprint(studyRetune.Milliseconds()), limit(costRetune+costJitter), fmt.Sprint((costRetune + costJitter).Milliseconds()))
}
