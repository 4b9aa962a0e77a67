package main

import (
	"slices"
	"strings"
	"testing"
)

const sample = `static int other(char *buf)
{
	if (os_strcmp(buf, "not_a_key") == 0)
		return 1;
}

static int hostapd_config_fill(struct hostapd_config *conf,
			       struct hostapd_bss_config *bss,
			       const char *buf, char *pos, int line)
{
	if (os_strcmp(buf, "interface") == 0) {
		os_strlcpy(conf->bss[0]->iface, pos, sizeof(conf->bss[0]->iface));
	} else if (os_strcmp(buf, "radius_das_require_message_authenticator") ==
		   0) {
		bss->x = atoi(pos);
	} else if (os_strcmp(buf, "group_mgmt_cipher") == 0) {
		if (os_strcmp(pos, "AES-128-CMAC") == 0) {
		}
	PARSE_TEST_PROBABILITY(ignore_probe_probability)
	} else if (os_strncmp(buf, "tx_queue_", 9) == 0) {
	} else if (os_strcmp(buf, "interface") == 0) {
	} else {
		return 1;
	}
}

static int later(char *buf)
{
	if (os_strcmp(buf, "after_fill") == 0)
		return 1;
}
`

// The keys of hostapd_config_fill alone: exact comparisons (one split over
// two lines), the test-probability macro, a prefix expanded, each once;
// nothing from the functions around it or the values it compares.
func TestKeys(t *testing.T) {
	got, err := Keys(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string{"group_mgmt_cipher", "ignore_probe_probability", "interface", "radius_das_require_message_authenticator"},
		cross("tx_queue_data", []string{"0", "1", "2", "3"}, "aifs cwmin cwmax burst")...)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("keys %v\nwant %v", got, want)
	}
	if _, err := Keys(strings.NewReader(strings.Replace(sample, `"tx_queue_"`, `"new_prefix_"`, 1))); err == nil {
		t.Error("an unknown prefix comparison is not reported")
	}
	if _, err := Keys(strings.NewReader("int main(void) {}\n")); err == nil {
		t.Error("a file without hostapd_config_fill is accepted")
	}
}
