package sim

import (
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A scenario lists simulated stations, one line each, as airqd -radio sim
// -sim-scenario reads them:
//
//	# three stations at three signals, each downloading and pinging
//	signal=-55 traffic=bulk,ping
//	signal=-69 loss=0.02 traffic=bulk,ping
//	signal=-77 ps=on traffic=udp:5,ping count=2
//
// Every key is optional; '#' starts a comment. ScenarioKeys says what each
// key accepts.

// Scenario is a list of stations and their traffic.
type Scenario struct {
	Stations []ScenarioStation
}

// ScenarioStation is one line of a scenario: Count stations alike.
type ScenarioStation struct {
	Signal    int8    // dBm as the AP hears it
	Loss      float64 // per attempt, either way, on top of the signal's
	PowerSave bool
	Reconnect bool // start over after the AP deauthenticates it
	Count     int
	Traffic   []Flow
	// BSS names the BSS beside the first (ap.BSSConfig.Name, airqd's
	// bss= section) whose network the station joins; "" the first BSS.
	BSS string
}

// Flow is one flow of a station's traffic.
type Flow struct {
	Kind FlowKind
	Mbit float64 // FlowUDP: the offered rate
}

// FlowKind names a flow.
type FlowKind uint8

// The flows a station can have.
const (
	FlowBulk   FlowKind = iota // a TCP-like download from the wired host
	FlowUpload                 // a TCP-like upload to the wired host
	FlowPing                   // the station pings the wired host every second
	FlowUDP                    // constant-rate UDP from the wired host
)

// MaxScenarioStations bounds a scenario's stations.
const MaxScenarioStations = 64

// ScenarioKeys are the keys of a scenario line and what each accepts.
var ScenarioKeys = [][2]string{
	{"signal", "-100 to -20 dBm as the AP hears the station (default -50); it decides which rates get through"},
	{"loss", "0 to 0.9: the probability an attempt is lost on the link either way, on top of the signal's (default 0)"},
	{"ps", "on or off: legacy power save, dozing from the association on, PS-Poll for what the TIM announces (default off)"},
	{"traffic", "a comma-separated list of bulk (download from the wired host), upload, ping (the station pings the host every second), udp:MBIT (downlink UDP at MBIT Mbit/s), or none (default bulk,ping)"},
	{"reconnect", "on or off: after a deauthentication (airqctl station del) the station joins again 100 ms later (default on)"},
	{"count", "1 to 64 stations alike (default 1)"},
	{"bss", "the name of the BSS beside the first (airqd's bss= section) whose network the station joins, up to 15 bytes (default the first BSS)"},
}

// DefaultStation is a station of a line without keys.
func DefaultStation() ScenarioStation {
	return ScenarioStation{Signal: -50, Reconnect: true, Count: 1, Traffic: []Flow{{Kind: FlowBulk}, {Kind: FlowPing}}}
}

// DefaultScenario is n default stations.
func DefaultScenario(n int) Scenario {
	if n == 0 {
		return Scenario{}
	}
	st := DefaultStation()
	st.Count = n
	return Scenario{Stations: []ScenarioStation{st}}
}

// Len returns the number of stations.
func (sc Scenario) Len() int {
	n := 0
	for _, st := range sc.Stations {
		n += st.Count
	}
	return n
}

// ParseScenario reads a scenario; an error names the line, the key and
// what it accepts.
func ParseScenario(text string) (Scenario, error) {
	var sc Scenario
	for i, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		st, err := parseStation(line)
		if err != nil {
			return Scenario{}, fmt.Errorf("line %d: %w", i+1, err)
		}
		sc.Stations = append(sc.Stations, st)
		if n := sc.Len(); n > MaxScenarioStations {
			return Scenario{}, fmt.Errorf("line %d: %d stations, want at most %d", i+1, n, MaxScenarioStations)
		}
	}
	return sc, nil
}

func parseStation(line string) (ScenarioStation, error) {
	st := DefaultStation()
	seen := map[string]bool{}
	for _, f := range strings.Fields(line) {
		key, val, ok := strings.Cut(f, "=")
		i := slices.IndexFunc(ScenarioKeys, func(k [2]string) bool { return k[0] == key })
		switch {
		case !ok || i < 0:
			return st, fmt.Errorf("%q: want KEY=VALUE with KEY one of %s", f, scenarioKeyNames())
		case seen[key]:
			return st, fmt.Errorf("%s given twice", key)
		}
		seen[key] = true
		if !st.set(key, val) {
			return st, fmt.Errorf("%s=%s: want %s", key, val, ScenarioKeys[i][1])
		}
	}
	return st, nil
}

func scenarioKeyNames() string {
	var names []string
	for _, k := range ScenarioKeys {
		names = append(names, k[0])
	}
	return strings.Join(names, ", ")
}

// set applies one key; false if the value is not one it accepts.
func (st *ScenarioStation) set(key, val string) bool {
	switch key {
	case "signal":
		n, err := strconv.Atoi(val)
		st.Signal = int8(n)
		return err == nil && n >= -100 && n <= -20
	case "loss":
		x, err := strconv.ParseFloat(val, 64)
		st.Loss = x
		return err == nil && x >= 0 && x <= 0.9
	case "ps":
		return onOff(&st.PowerSave, val)
	case "reconnect":
		return onOff(&st.Reconnect, val)
	case "count":
		n, err := strconv.Atoi(val)
		st.Count = n
		return err == nil && n >= 1 && n <= MaxScenarioStations
	case "traffic":
		var ok bool
		st.Traffic, ok = parseTraffic(val)
		return ok
	case "bss":
		st.BSS = val
		return val != "" && len(val) <= 15 && !strings.Contains(val, "/")
	}
	return false
}

func onOff(p *bool, v string) bool {
	*p = v == "on"
	return v == "on" || v == "off"
}

func parseTraffic(v string) ([]Flow, bool) {
	if v == "none" {
		return nil, true
	}
	var out []Flow
	for item := range strings.SplitSeq(v, ",") {
		switch item {
		case "bulk":
			out = append(out, Flow{Kind: FlowBulk})
		case "upload":
			out = append(out, Flow{Kind: FlowUpload})
		case "ping":
			out = append(out, Flow{Kind: FlowPing})
		default:
			rate, ok := strings.CutPrefix(item, "udp:")
			x, err := strconv.ParseFloat(rate, 64)
			if !ok || err != nil || !(x >= 0.01 && x <= 1000) { // NaN too
				return nil, false
			}
			out = append(out, Flow{Kind: FlowUDP, Mbit: x})
		}
	}
	return out, true
}

// String returns the station as a scenario line with every key.
func (st ScenarioStation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "signal=%d loss=%s ps=%s reconnect=%s count=%d traffic=", st.Signal,
		strconv.FormatFloat(st.Loss, 'g', -1, 64), onOffText(st.PowerSave), onOffText(st.Reconnect), st.Count)
	if len(st.Traffic) == 0 {
		b.WriteString("none")
	}
	for i, f := range st.Traffic {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.String())
	}
	if st.BSS != "" {
		b.WriteString(" bss=" + st.BSS)
	}
	return b.String()
}

// String returns the flow as the traffic key names it.
func (f Flow) String() string {
	switch f.Kind {
	case FlowBulk:
		return "bulk"
	case FlowUpload:
		return "upload"
	case FlowPing:
		return "ping"
	}
	return "udp:" + strconv.FormatFloat(f.Mbit, 'g', -1, 64)
}

// String returns the scenario, a line a station line.
func (sc Scenario) String() string {
	var b strings.Builder
	for _, st := range sc.Stations {
		b.WriteString(st.String() + "\n")
	}
	return b.String()
}

func onOffText(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// udpInterval is the gap between 1400-byte datagrams at mbit Mbit/s.
func udpInterval(mbit float64) time.Duration {
	return max(time.Duration(float64(udpSize*8)/mbit*float64(time.Microsecond)), time.Microsecond)
}

const udpSize = 1400

// LoadScenario reads the scenario file at name with readFile (os.ReadFile)
// or, when there is none, the built-in scenario called name.
func LoadScenario(name string, readFile func(string) ([]byte, error)) (Scenario, error) {
	b, err := readFile(name)
	if err != nil {
		text, ok := BuiltinScenario(name)
		if !ok {
			return Scenario{}, fmt.Errorf("%v; the built-in scenarios are %s", err, strings.Join(BuiltinScenarios(), ", "))
		}
		b = []byte(text)
	}
	sc, err := ParseScenario(string(b))
	if err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", name, err)
	}
	return sc, nil
}

//go:embed scenarios/*.scn
var builtin embed.FS

// BuiltinScenario returns the scenario of sim/scenarios/NAME.scn.
func BuiltinScenario(name string) (text string, ok bool) {
	b, err := builtin.ReadFile("scenarios/" + name + ".scn")
	return string(b), err == nil
}

// BuiltinScenarios lists the names BuiltinScenario knows.
func BuiltinScenarios() []string {
	ents, _ := builtin.ReadDir("scenarios")
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".scn"))
	}
	return names
}
