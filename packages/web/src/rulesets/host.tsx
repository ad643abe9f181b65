import { useEffect, useState } from 'preact/hooks';
import { rulesetChoice } from './catalog';
import { loadRulesetPages, type RulesetPages, type RulesetTableProps } from './registry';

/** Loads the pages of a table's ruleset and shows its table page. */
export function RulesetTable(props: RulesetTableProps & { ruleset: string }) {
  const [pages, setPages] = useState<RulesetPages | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    setPages(null);
    setFailed(null);
    const loading = loadRulesetPages(props.ruleset);
    if (!loading) {
      setFailed(`This table plays the ruleset "${props.ruleset}", which this web app cannot show.`);
      return;
    }
    let live = true;
    loading.then(
      (p) => live && setPages(p),
      () => live && setFailed(`The pages of ${rulesetChoice(props.ruleset)?.title ?? props.ruleset} could not be loaded. Reload the page to try again.`),
    );
    return () => {
      live = false;
    };
  }, [props.ruleset]);
  if (failed) {
    return (
      <p class="error-text" role="alert">
        {failed}
      </p>
    );
  }
  if (!pages) return <p class="muted">Opening the table…</p>;
  const { ruleset: _ruleset, ...rest } = props;
  return <pages.Table {...rest} />;
}
