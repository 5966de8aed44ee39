package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Report is the part of `limitcheck check -o json` the comparison reads
// (internal/render/testdata/report.schema.json).
type Report struct {
	Results []Result `json:"results"`
	Quotas  []struct {
		Namespace string            `json:"namespace"`
		Name      string            `json:"name"`
		Hard      map[string]string `json:"hard"`
		Used      map[string]string `json:"used"`
	} `json:"quotas"`
}

// Result is one document's result.
type Result struct {
	File         string   `json:"file"`
	Index        int      `json:"index"`
	APIVersion   string   `json:"apiVersion"`
	Kind         string   `json:"kind"`
	Namespace    string   `json:"namespace"`
	Name         string   `json:"name"`
	Allowed      *bool    `json:"allowed"`
	Skipped      bool     `json:"skipped"`
	SkipReason   string   `json:"skipReason"`
	Error        string   `json:"error"`
	Live         bool     `json:"live"`
	Code         int      `json:"code"`
	Message      string   `json:"message"`
	MessageParts []string `json:"messageParts"`
	Adopted      int      `json:"adopted"`
	Created      []struct {
		Kind         string   `json:"kind"`
		Name         string   `json:"name"`
		Allowed      bool     `json:"allowed"`
		Count        int      `json:"count"`
		Code         int      `json:"code"`
		Message      string   `json:"message"`
		MessageParts []string `json:"messageParts"`
	} `json:"created"`
}

// RunLimitcheck runs `limitcheck check -o json` on the case (its stream in
// dir/input.yaml) and returns the report and the raw output.
func RunLimitcheck(bin, dir string, c *Case) (*Report, []byte, error) {
	in := filepath.Join(dir, "input.yaml")
	if err := os.WriteFile(in, c.Stream(), 0o644); err != nil {
		return nil, nil, err
	}
	args := append([]string{"check", "-o", "json"}, c.Flags...)
	if c.InputOrder {
		args = append(args, "--order=input")
	}
	args = append(args, "-f", in)
	cmd := exec.Command(bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && (ee.ExitCode() == 1 || ee.ExitCode() == 2) && out.Len() > 0 {
		err = nil // something was denied (1), or a document could not be read (2)
	}
	if err != nil {
		return nil, out.Bytes(), fmt.Errorf("limitcheck %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	var rep Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, out.Bytes(), err
	}
	return &rep, out.Bytes(), nil
}

// Stats counts what a comparison looked at.
type Stats struct {
	Cases, Objects, Workloads, PodsCompared, Quotas int
	// OrderExplained counts differences another order of the LimitRanges
	// or quotas explains (LR-22).
	OrderExplained int
	// Described counts describe commands compared with kubectl describe.
	Described int
	// Streams counts inputs given to kubectl create -f as they are (IN-14).
	Streams     int
	NotCompared map[string]int
}

func (s *Stats) skip(why string) {
	if s.NotCompared == nil {
		s.NotCompared = map[string]int{}
	}
	s.NotCompared[why]++
}

// Compare lists the differences between the replay and limitcheck's report.
func Compare(c *Case, real *Replay, rep *Report, st *Stats) []string {
	var diffs []string
	// The input's results by document (live ones left out); limitcheck
	// lists them in admission order, each with its file and index there.
	results := map[int]*Result{}
	for i := range rep.Results {
		r := &rep.Results[i]
		if r.Live {
			continue
		}
		if c.Sources == nil {
			results[r.Index] = r
			continue
		}
		for j, src := range c.Sources {
			if src.File == r.File && src.Index == r.Index {
				results[j] = r
			}
		}
	}
	// Namespaces where an object was taken on trust (a class or
	// ServiceAccount the input lacks): the cluster refused it, limitcheck
	// charged it, so their quota totals differ by design.
	trustedNS := map[string]bool{}
	// Namespaces with an admitted object that names owners: the garbage
	// collector deletes it (and what it owns) when no owner with that uid
	// exists, which limitcheck cannot know.
	ownedNS := map[string]bool{}
	for i, o := range real.Outcomes {
		r := results[i]
		where := fmt.Sprintf("document %d (%s %s)", i, o.Kind, o.Name)
		if o.Allowed && hasOwners(c.Docs[i]) {
			ownedNS[o.Namespace] = true
		}
		if r == nil {
			diffs = append(diffs, where+": no limitcheck result")
			continue
		}
		if r.Skipped {
			if isClass(o.Kind) && !o.Allowed {
				// A class limitcheck takes as valid (VAL-72..74).
				diffs = append(diffs, fmt.Sprintf("%s: kube-apiserver allowed=false %d %q; limitcheck skipped it as a valid class", where, o.Code, o.Message))
				continue
			}
			st.skip("skipped by limitcheck: " + r.Kind)
			continue
		}
		if o.Kind == "Namespace" && o.Allowed {
			st.skip("Namespace documents (created first)")
			continue
		}
		st.Objects++
		// A workload admitted itself whose created objects are refused
		// is denied with their refusal, and lists them.
		lcAllowed := r.Allowed != nil && *r.Allowed || len(r.Created) > 0
		if r.Error != "" && !o.Allowed && o.Code == 400 && r.Code == 400 {
			// A document limitcheck cannot read (an unknown field, a
			// malformed quantity, a boolean for a string) is kube-apiserver's
			// 400 when decoding it. limitcheck's error holds the message
			// after the file, line and field, and before its hints (IN-08).
			if strings.Contains(o.Message, " cannot be handled as a ") {
				if !strings.Contains(r.Error, ": "+o.Message) {
					diffs = append(diffs, fmt.Sprintf("%s: kube-apiserver 400 %q; limitcheck error %q", where, o.Message, r.Error))
				}
				continue
			}
			st.skip("a document limitcheck cannot read, kube-apiserver's 400 (messages not compared)")
			continue
		}
		if o.Error != "" || r.Error != "" {
			if o.Error == "" || lcAllowed {
				diffs = append(diffs, fmt.Sprintf("%s: kubectl-side error %q, limitcheck error %q allowed %v code %d %q", where, o.Error, r.Error, lcAllowed, r.Code, r.Message))
			}
			continue
		}
		if !o.Allowed && trustedServiceAccount(c, o.Message) && o.Message != r.Message {
			st.skip("a ServiceAccount the input lacks, trusted by limitcheck (PL-11)")
			trustedNS[o.Namespace] = true
			continue
		}
		if !o.Allowed && trustedClass(c, o.Message) && o.Message != r.Message {
			// docs/behaviour.md RQ-34: with no class of a kind in the
			// input, limitcheck takes references to that kind on trust.
			st.skip("a class the input lacks, trusted by limitcheck (RQ-34)")
			trustedNS[o.Namespace] = true
			continue
		}
		if o.Allowed != lcAllowed {
			diffs = append(diffs, fmt.Sprintf("%s: kube-apiserver allowed=%v %d %q; limitcheck allowed=%v %d %q", where, o.Allowed, o.Code, o.Message, lcAllowed, r.Code, r.Message))
			continue
		}
		if !o.Allowed {
			o.Message = uid.ReplaceAllLiteralString(generatedNames(c.Docs[i], o.Message), "00000000-0000-0000-0000-000000000000")
			r.Message = uid.ReplaceAllLiteralString(r.Message, "00000000-0000-0000-0000-000000000000")
			// A node port the cluster picks is random; limitcheck's is
			// the highest free one (README, "Differences from a real cluster").
			o.Message = pickedNodePort.ReplaceAllString(o.Message, "${1}N")
			r.Message = pickedNodePort.ReplaceAllString(r.Message, "${1}N")
			// So is a cluster IP it picks, which a Service without a name
			// shows (VAL-64); limitcheck's is a placeholder.
			o.Message = pickedClusterIP.ReplaceAllString(o.Message, "${1}N")
			r.Message = pickedClusterIP.ReplaceAllString(r.Message, "${1}N")
			if o.Code == r.Code && isLimitRangerMessage(o.Message) && isLimitRangerMessage(r.Message) && limitRanges(c, o.Namespace) > 1 && o.Message != r.Message {
				st.skip("another LimitRange refused first (map order upstream, LR-22)")
				continue
			}
			// The parts get the message's stand-ins too.
			parts := make([]string, len(r.MessageParts))
			for j, p := range r.MessageParts {
				p = uid.ReplaceAllLiteralString(p, "00000000-0000-0000-0000-000000000000")
				p = pickedNodePort.ReplaceAllString(p, "${1}N")
				parts[j] = pickedClusterIP.ReplaceAllString(p, "${1}N")
			}
			if o.Code != r.Code || !sameMessage(o.Message, r.Message, parts) {
				diffs = append(diffs, fmt.Sprintf("%s: kube-apiserver %d %q\n      limitcheck     %d %q", where, o.Code, o.Message, r.Code, r.Message))
			}
			continue
		}
		if o.Created == nil {
			continue
		}
		st.Workloads++
		if o.Created.NotCompared != "" {
			st.skip("created objects: " + o.Created.NotCompared)
			continue
		}
		trusted := false
		for _, m := range o.Created.Refusals {
			trusted = trusted || trustedClass(c, m) || trustedServiceAccount(c, m)
		}
		if trusted {
			st.skip("created objects: a class or ServiceAccount the input lacks, trusted by limitcheck")
			trustedNS[o.Namespace] = true
			continue
		}
		if o.Created.SettleTimeout {
			diffs = append(diffs, where+": the controllers did not settle")
			continue
		}
		pods, claims := r.Adopted, 0
		lcRefusals := map[string]bool{}
		lcParts := map[string][]string{}
		for _, cr := range r.Created {
			n := cr.Count
			if n == 0 {
				n = 1
			}
			if !cr.Allowed {
				m := NormalizeMessage(cr.Message)
				lcRefusals[m] = true
				lcParts[m] = cr.MessageParts
				continue
			}
			switch cr.Kind {
			case "Pod":
				pods += n
			case "PersistentVolumeClaim":
				claims += n
			}
		}
		st.PodsCompared += max(pods, o.Created.Pods)
		if pods != o.Created.Pods || claims != o.Created.Claims {
			diffs = append(diffs, fmt.Sprintf("%s: the cluster has %d Pods and %d claims of it; limitcheck admits %d Pods (adopted %d) and %d claims", where, o.Created.Pods, o.Created.Claims, pods, r.Adopted, claims))
		}
		if !sameRefusals(o.Created.Refusals, lcRefusals, lcParts, limitRanges(c, o.Namespace) > 1) {
			diffs = append(diffs, fmt.Sprintf("%s: refusals of created objects differ:\n      kube-apiserver %q\n      limitcheck     %q", where, o.Created.Refusals, keys(lcRefusals)))
		}
	}
	lcQuotas := map[string]QuotaState{}
	for _, q := range rep.Quotas {
		lcQuotas[q.Namespace+"/"+q.Name] = QuotaState{Hard: q.Hard, Used: q.Used}
	}
	for name, q := range real.Quotas {
		if ns, _, _ := strings.Cut(name, "/"); trustedNS[ns] {
			st.skip("quota totals of a namespace with objects taken on trust")
			continue
		} else if ownedNS[ns] {
			st.skip("quota totals of a namespace with objects naming owners (the garbage collector may delete them)")
			continue
		}
		st.Quotas++
		l, ok := lcQuotas[name]
		if !ok {
			diffs = append(diffs, "quota "+name+": exists on the cluster, not in limitcheck's summary")
			continue
		}
		if d := diffQuantities(q.Hard, l.Hard); d != "" {
			diffs = append(diffs, "quota "+name+" hard: "+d)
		}
		if d := diffQuantities(q.Used, l.Used); d != "" {
			diffs = append(diffs, "quota "+name+" used: "+d)
		}
	}
	for name := range lcQuotas {
		if _, ok := real.Quotas[name]; !ok {
			diffs = append(diffs, "quota "+name+": in limitcheck's summary, not on the cluster")
		}
	}
	return diffs
}

var pickedNodePort = regexp.MustCompile(`(nodePort: Duplicate value: )\d+`)

var pickedClusterIP = regexp.MustCompile(`(failed to allocate IP: IPAddress\.networking\.k8s\.io )"[^"]*"`)

// uid is a UID in a message: limitcheck shows its placeholder for a new
// Job's (README, "Differences from a real cluster").
var uid = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// maxGeneratedPrefix is names.MaxGeneratedNameLength: 63 less the 5
// random characters.
const maxGeneratedPrefix = 58

// generatedNames replaces in a message kube-apiserver's suffix of the name it
// generated for doc by limitcheck's stand-in, xxxxx. A document that sets
// its name as well (a Pod exported from a cluster) keeps it: no name is
// generated.
func generatedNames(doc []byte, msg string) string {
	m := metaOf(doc).Metadata
	g := m.GenerateName
	if g == "" || m.Name != "" {
		return msg
	}
	if len(g) > maxGeneratedPrefix {
		g = g[:maxGeneratedPrefix] // the generator cuts the prefix first (PL-04)
	}
	re := regexp.MustCompile(regexp.QuoteMeta(g) + `[a-z0-9]{5}\b`)
	return re.ReplaceAllLiteralString(msg, g+"xxxxx")
}

var classRefusals = map[string]*regexp.Regexp{
	"RuntimeClass":  regexp.MustCompile(`is forbidden: pod rejected: RuntimeClass "[^"]*" not found$`),
	"PriorityClass": regexp.MustCompile(`is forbidden: no PriorityClass with name \S+ was found$`),
}

var saRefusal = regexp.MustCompile(`is forbidden: error looking up service account [^/]+/(\S+): serviceaccount "[^"]*" not found$`)

// trustedServiceAccount: msg is the ServiceAccount plugin's refusal of an
// account with a valid name that the case does not create (PL-11).
func trustedServiceAccount(c *Case, msg string) bool {
	m := saRefusal.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	for _, d := range c.Docs {
		if t := metaOf(d); t.Kind == "ServiceAccount" && t.Metadata.Name == m[1] {
			return false
		}
	}
	return true
}

// trustedClass: msg refuses a class of a kind the case has none of.
func trustedClass(c *Case, msg string) bool {
	for kind, re := range classRefusals {
		if !re.MatchString(msg) {
			continue
		}
		for _, d := range c.Docs {
			if metaOf(d).Kind == kind {
				return false
			}
		}
		return true
	}
	return false
}

// sameMessage: equal, or equal but for the order of the parts limitcheck
// lists (kube-apiserver orders some by map iteration).
func sameMessage(real, lc string, parts []string) bool {
	if real == lc {
		return true
	}
	if len(real) != len(lc) || len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if !strings.Contains(real, p) {
			return false
		}
	}
	return true
}

// sameRefusals: every refusal the controllers met is one limitcheck lists
// (but for the order of its parts) and the other way round. With several
// LimitRanges in the namespace, kube-apiserver lists them in map order
// (docs/behaviour.md LR-22): each retry of a controller may meet another one
// first, so a LimitRanger refusal of the cluster need only be one.
func sameRefusals(real []string, lc map[string]bool, parts map[string][]string, lrOrder bool) bool {
	matched := map[string]bool{}
	for _, m := range real {
		found := false
		for l := range lc {
			if sameMessage(m, l, parts[l]) {
				matched[l], found = true, true
			}
		}
		if !found && !(lrOrder && isLimitRangerMessage(m)) {
			return false
		}
	}
	if lrOrder && len(real) > 0 && len(lc) > 0 {
		return true
	}
	return len(matched) == len(lc)
}

var limitRangerMessage = regexp.MustCompile(`is forbidden: \[?(maximum|minimum) \S+ usage per |is forbidden: \[?\S+ max limit to request ratio per `)

func isLimitRangerMessage(m string) bool { return limitRangerMessage.MatchString(m) }

// limitRanges counts the LimitRanges of the case in namespace ns.
func limitRanges(c *Case, ns string) int {
	n := 0
	for _, d := range c.Docs {
		t := metaOf(d)
		if t.Kind == "LimitRange" && (t.Metadata.Namespace == ns || t.Metadata.Namespace == "" && ns == c.Namespace) {
			n++
		}
	}
	return n
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// diffQuantities compares two quantity maps, a missing entry counting as 0.
func diffQuantities(real, lc map[string]string) string {
	var d []string
	seen := map[string]bool{}
	for _, m := range []map[string]string{real, lc} {
		for k := range m {
			if seen[k] {
				continue
			}
			seen[k] = true
			a, b := parseQ(real[k]), parseQ(lc[k])
			if a.Cmp(b) != 0 {
				d = append(d, fmt.Sprintf("%s: cluster %q, limitcheck %q", k, real[k], lc[k]))
			}
		}
	}
	sort.Strings(d)
	return strings.Join(d, "; ")
}

func parseQ(s string) resource.Quantity {
	if s == "" {
		return resource.Quantity{}
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return resource.MustParse("-1")
	}
	return q
}

// hasOwners reports whether a document sets metadata.ownerReferences.
func hasOwners(doc []byte) bool {
	var m struct {
		Metadata struct {
			OwnerReferences []json.RawMessage `json:"ownerReferences"`
		} `json:"metadata"`
	}
	return json.Unmarshal(doc, &m) == nil && len(m.Metadata.OwnerReferences) > 0
}
