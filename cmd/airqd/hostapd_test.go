package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/config"
	"github.com/airq/airq/ctl"
)

const (
	debianConf  = "../../config/testdata/hostapd-debian.conf"
	minimalConf = "../../config/testdata/hostapd-minimal.conf"
)

// keyStatus is a key's row in the README's tables.
type keyStatus struct {
	status string   // honoured, ignored, refused, or "if" (ignored for same, else refused)
	same   []string // the values of "ignored if `V`, else refused"
}

// readmeKeys reads the key tables of the README's Configuration section,
// expanding `a_{x,y}_b` to a_x_b and a_y_b.
func readmeKeys(t *testing.T) map[string]keyStatus {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n## Configuration\n")
	end := strings.Index(text[start+1:], "\n## ")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no Configuration section")
	}
	row := regexp.MustCompile("^\\| ((?:`[^`]+` ?)+) \\| ([^|]+) \\|")
	ifRe := regexp.MustCompile("^ignored if ((?:`[^`]+`(?: or )?)+), else refused$")
	out := map[string]keyStatus{}
	for _, line := range strings.Split(text[start:start+1+end], "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var ks keyStatus
		switch st := strings.TrimSpace(m[2]); {
		case st == "honoured", st == "ignored", st == "refused", st == "honoured in part":
			ks.status = st
		case ifRe.MatchString(st):
			ks.status = "if"
			for _, v := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(st, -1) {
				ks.same = append(ks.same, v[1])
			}
		default:
			t.Fatalf("README: %q: unknown status %q", line, st)
		}
		for _, f := range strings.Fields(strings.ReplaceAll(m[1], "`", " ")) {
			for _, k := range expandBraces(f) {
				if _, dup := out[k]; dup {
					t.Errorf("README: %s is listed twice", k)
				}
				out[k] = ks
			}
		}
	}
	return out
}

func expandBraces(s string) []string {
	i := strings.IndexByte(s, '{')
	if i < 0 {
		return []string{s}
	}
	j := i + strings.IndexByte(s[i:], '}')
	var out []string
	for _, alt := range strings.Split(s[i+1:j], ",") {
		out = append(out, expandBraces(s[:i]+alt+s[j+1:])...)
	}
	return out
}

// exampleLines are the key=value lines of Debian's example, commented out
// or not, with their keys.
func exampleLines(t *testing.T) [][2]string {
	t.Helper()
	f, err := os.Open(debianConf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	re := regexp.MustCompile(`^#?([a-z0-9_]+)=(.*)$`)
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			out = append(out, [2]string{m[1], m[2]})
		}
	}
	if len(out) < 400 {
		t.Fatalf("%d key lines in %s", len(out), debianConf)
	}
	return out
}

// checkOutput runs -check-config in-process, as airqd runs it.
func checkOutput(t *testing.T, args ...string) (lines []string, status int) {
	t.Helper()
	var out bytes.Buffer
	o, err := parseFlags(args)
	status = checkConfig(o, err, &out)
	lines = strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	return lines[:len(lines)-1], status // the summary last
}

// The README's tables list every key airq knows and every key of Debian's
// example, and each line of that example (commented out or not), alone in a
// file, gets from -check-config what the README says of its key.
func TestHostapdExampleKeys(t *testing.T) {
	table := readmeKeys(t)
	known := config.Known()
	for _, k := range known {
		if _, ok := table[k]; !ok {
			t.Errorf("README: %s is missing from the key tables", k)
		}
	}
	for k := range table {
		if !slices.Contains(known, k) {
			t.Errorf("README: %s is listed but airq does not know it", k)
		}
	}
	path := filepath.Join(t.TempDir(), "line.conf")
	for _, kv := range exampleLines(t) {
		key, value := kv[0], kv[1]
		ks, ok := table[key]
		if !ok {
			t.Errorf("%s (Debian's example) is not in the README", key)
			continue
		}
		writeFile(t, path, key+"="+value+"\n")
		lines, _ := checkOutput(t, "-radio", "sim", "-check-config", path)
		if out := strings.Join(lines, "\n"); strings.Contains(out, ": needs wpa=2") || strings.Contains(out, "wpa=2 needs ") {
			writeFile(t, path, key+"="+value+"\n"+wpaLines(key, value))
			lines, _ = checkOutput(t, "-radio", "sim", "-check-config", path)
		}
		var errs, warns []string
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, path+":1: warning: "+key+": "):
				warns = append(warns, l)
			case strings.HasPrefix(l, path+":1: "+key+": "):
				errs = append(errs, l)
			case strings.Contains(l, "unknown key"):
				errs = append(errs, l)
			}
		}
		ignored := len(warns) == 1 && len(errs) == 0 && strings.Contains(warns[0], ": ignored: ")
		refused := len(errs) == 1 && len(warns) == 0 && !strings.Contains(errs[0], "unknown key")
		var fine bool
		switch ks.status {
		case "honoured":
			fine = !strings.Contains(strings.Join(lines, "\n"), "not supported") && !strings.Contains(strings.Join(lines, "\n"), "unknown key") &&
				!strings.Contains(strings.Join(warns, "\n"), ": ignored: ")
		case "honoured in part": // a value of the example may be one refused by name; alone, it may need another key to act
			fine = !strings.Contains(strings.Join(lines, "\n"), "unknown key") && (len(warns) == 0 || len(warns) == 1 && strings.Contains(warns[0], ": changes nothing here: ")) &&
				(len(errs) == 0 || len(errs) == 1 && strings.Contains(errs[0], " is not supported; want "))
		case "ignored":
			fine = ignored
		case "refused":
			fine = refused
		case "if":
			fine = refused
			if slices.Contains(ks.same, strings.TrimSpace(value)) {
				fine = ignored
			}
		}
		if !fine {
			t.Errorf("%s=%s (README: %s %v): -check-config says\n%s", key, value, ks.status, ks.same, strings.Join(lines, "\n"))
		}
	}
}

// wpaLines complete a WPA2 key's line (line 1) into a WPA2 network.
func wpaLines(key, value string) string {
	var extra string
	if key != "wpa" {
		extra = "wpa=2\n"
	}
	if key != "wpa_passphrase" && key != "wpa_psk" && key != "wpa_psk_file" && (key != "wpa" || value == "2") {
		extra += "wpa_passphrase=12345678\n"
	}
	if strings.HasPrefix(key, "sae_") || key == "anti_clogging_threshold" || key == "transition_disable" {
		extra += "wpa_key_mgmt=WPA-PSK SAE\nieee80211w=1\n" // a transition BSS: WPA3's keys act
	}
	return extra
}

// Debian's example through -check-config: every problem in one run, none
// for a key the README accepts, warnings only for the keys it ignores; the
// only error is the phy the file cannot name. With -radio sim it passes.
func TestCheckConfigDebianExample(t *testing.T) {
	binaries(t)
	table := readmeKeys(t)
	run := func(args ...string) ([]string, int) {
		var out bytes.Buffer
		cmd := exec.Command(airqdBin, args...)
		cmd.Stdout = &out
		err := cmd.Run()
		var ee *exec.ExitError
		status := 0
		if errors.As(err, &ee) {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), status
	}
	lines, status := run("-check-config", debianConf)
	t.Logf("airqd -check-config %s:\n%s", debianConf, strings.Join(lines, "\n"))
	warnRe := regexp.MustCompile(`^` + regexp.QuoteMeta(debianConf) + `:\d+: warning: ([a-z0-9_]+): ignored: `)
	var warnings, errs int
	for _, l := range lines[:len(lines)-1] {
		if m := warnRe.FindStringSubmatch(l); m != nil {
			warnings++
			if st := table[m[1]].status; st != "ignored" && st != "if" {
				t.Errorf("a warning for %s, which the README says is %q: %s", m[1], st, l)
			}
			continue
		}
		errs++
		t.Errorf("an error: %s", l)
	}
	// interface=wlan0 names the radio: airqd would drive wlan0's phy.
	if status != 0 || errs != 0 || warnings != 9 || lines[len(lines)-1] != debianConf+": 9 warnings: airqd would start" {
		t.Errorf("status %d, %d errors, %d warnings, summary %q", status, errs, warnings, lines[len(lines)-1])
	}
	lines, status = run("-radio", "sim", "-check-config", debianConf)
	if status != 0 || lines[len(lines)-1] != debianConf+": 10 warnings: airqd would start" {
		t.Errorf("-radio sim: status %d, %q", status, lines[len(lines)-1])
	}
	// A real problem fails; the file's line and key are named.
	bad := filepath.Join(t.TempDir(), "bad.conf")
	writeFile(t, bad, "ssid=x\nwpa=2\nwpa_passphrase=short12\nbogus=1\n")
	lines, status = run("-radio", "sim", "-check-config", bad)
	if status != 2 || len(lines) != 3 || lines[0] != bad+":3: wpa_passphrase: 7 characters, want 8 to 63" ||
		!strings.HasPrefix(lines[1], bad+":4: unknown key \"bogus\"") || strings.Contains(strings.Join(lines, "\n"), "short12") {
		t.Errorf("status %d:\n%s", status, strings.Join(lines, "\n"))
	}
}

// Typical open configurations from hostapd's documentation start unchanged
// on the simulator: Debian's example and the wireless wiki's minimal one.
// Their warnings are logged and stations join.
func TestHostapdConfigsStart(t *testing.T) {
	for _, conf := range []string{debianConf, minimalConf} {
		t.Run(filepath.Base(conf), func(t *testing.T) {
			// Debian's /var/run/hostapd is shared by every run on the host.
			d := startDaemon(t, "-config", conf, "-sim-stations", "2", "-sim-join", "100ms", "-ctrl-interface", t.TempDir())
			waitAssociated(t, d, 2, 10*time.Second)
			var s ctl.Status
			d.ctlJSON(t, &s, "status")
			if s.SSID != "test" || s.Channel != 1 {
				t.Errorf("ssid %q channel %d, want the file's test on 1", s.SSID, s.Channel)
			}
			if !strings.Contains(d.log(), "level=WARN msg=\""+conf+":") || !strings.Contains(d.log(), "interface: changes nothing here: the simulated radio") {
				t.Errorf("no warning logged for interface=")
			}
		})
	}
}
