package formula

import "github.com/evogp/evogp/runfile"

// ValidationBestBaseline is the best baseline a learner run chose on its
// validation set (best.json's "best_baseline"), for the policy source
// source as Source reads it: path is the best.json, and ok is false for
// an inline formula or a best.json that names none.
func ValidationBestBaseline(source string) (name, path string, ok bool, err error) {
	if path, err = bestPath(source); err != nil || path == "" {
		return "", "", false, err
	}
	best, err := runfile.LoadBest(path)
	if err != nil {
		return "", "", false, err
	}
	return best.BestBaseline, path, best.BestBaseline != "", nil
}
