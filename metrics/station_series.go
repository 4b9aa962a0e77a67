package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// Per-station series are most of a scrape at a full table (2,007
// stations, 21 series each). prometheus.MustNewConstMetric allocates a
// metric, its label pairs and their strings for each one; here a scrape
// allocates the series of all stations in one slab, the ac and dir label
// pairs once per collector, and per station one mac label pair and the
// label lists that share it. Only reads follow: the registry's Gather
// calls Write, which points into the slab.

// seriesPerStation is how many series collectStation emits.
const seriesPerStation = 2*ieee80211.NumACs + 13

// stationSeries is one per-station sample.
type stationSeries struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair
	value  float64
	gauge  bool
}

func (m *stationSeries) Desc() *prometheus.Desc { return m.desc }

func (m *stationSeries) Write(out *dto.Metric) error {
	out.Label = m.labels
	if m.gauge {
		out.Gauge = &dto.Gauge{Value: &m.value}
	} else {
		out.Counter = &dto.Counter{Value: &m.value}
	}
	return nil
}

// fixedPairs are the label pairs every station shares, sorted by name
// before mac as the registry wants them.
type fixedPairs struct {
	ac  [ieee80211.NumACs]*dto.LabelPair
	dir [2]*dto.LabelPair // tx, rx
}

func newFixedPairs() fixedPairs {
	var f fixedPairs
	pair := func(name, value string) *dto.LabelPair { return &dto.LabelPair{Name: &name, Value: &value} }
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		f.ac[ac] = pair("ac", ac.String())
	}
	f.dir[0], f.dir[1] = pair("dir", "tx"), pair("dir", "rx")
	return f
}

// stationLabels are one station's label lists.
type stationLabels struct {
	mac []*dto.LabelPair
	ac  [ieee80211.NumACs][]*dto.LabelPair
	dir [2][]*dto.LabelPair
}

func (f *fixedPairs) labels(addr ctl.MAC) stationLabels {
	mac := addr.String()
	name := "mac"
	m := &dto.LabelPair{Name: &name, Value: &mac}
	var all [1 + 2*ieee80211.NumACs + 4]*dto.LabelPair
	l := stationLabels{mac: all[0:1:1]}
	all[0] = m
	for ac := range l.ac {
		i := 1 + 2*ac
		all[i], all[i+1] = f.ac[ac], m
		l.ac[ac] = all[i : i+2 : i+2]
	}
	for d := range l.dir {
		i := 1 + 2*ieee80211.NumACs + 2*d
		all[i], all[i+1] = f.dir[d], m
		l.dir[d] = all[i : i+2 : i+2]
	}
	return l
}

// collectStations emits every station's series from one slab.
func (s *sectionDescs) collectStations(e emitter, sts []ctl.Station) {
	slab := make([]stationSeries, 0, len(sts)*seriesPerStation)
	emit := func(d *prometheus.Desc, labels []*dto.LabelPair, v float64, gauge bool) {
		slab = append(slab, stationSeries{desc: d, labels: labels, value: v, gauge: gauge})
		e.ch <- &slab[len(slab)-1]
	}
	for i := range sts {
		st := &sts[i]
		l := s.fixed.labels(st.Addr)
		for ac := range ieee80211.AC(ieee80211.NumACs) {
			emit(s.staAirtime, l.ac[ac], float64(st.ACAirtime[ac])/usPerSecond, false)
			emit(s.staPending, l.ac[ac], float64(st.AQLPending[ac])/usPerSecond, true)
		}
		emit(s.staBytes, l.dir[0], float64(st.TxBytes), false)
		emit(s.staBytes, l.dir[1], float64(st.RxBytes), false)
		emit(s.staPackets, l.dir[0], float64(st.TxPackets), false)
		emit(s.staPackets, l.dir[1], float64(st.RxPackets), false)
		emit(s.staRetries, l.mac, float64(st.TxRetries), false)
		emit(s.staFailed, l.mac, float64(st.TxFailed), false)
		emit(s.staNoStatus, l.mac, float64(st.TxNoStatus), false)
		emit(s.staSignal, l.mac, float64(st.Signal), true)
		emit(s.staWeight, l.mac, float64(st.AirtimeWeight), true)
		emit(s.staQueued, l.mac, float64(st.QueueFramesTotal), true)
		emit(s.staAMSDUs, l.mac, float64(st.AMSDUs), false)
		emit(s.staAMSDUSubframes, l.mac, float64(st.AMSDUSubframes), false)
		emit(s.staAMSDUBytes, l.mac, float64(st.AMSDUBytes), false)
	}
}
