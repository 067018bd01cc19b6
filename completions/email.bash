# bash completion for email                                -*- shell-script -*-
# Generated from the command tree by `email completion bash`; do not edit.
# Install: email completion bash > /etc/bash_completion.d/email
#      or: source <(email completion bash)   (in ~/.bashrc)

_email_subcommands() {
  case "$1" in
    '') printf '%s\n' auth subscribers customfields segments campaigns templates transactional webhooks api config sandbox doctor completion help ;;
    auth) printf '%s\n' login logout status switch ;;
    subscribers) printf '%s\n' add update import history lists ;;
    customfields) printf '%s\n' create ;;
    segments) printf '%s\n' create get update add-rules clear-rules ;;
    campaigns) printf '%s\n' create preview unschedule unsubscribes summary open scheduled sent ;;
    templates) printf '%s\n' create ;;
    transactional) printf '%s\n' list get stats ;;
    webhooks) printf '%s\n' listen replay trigger ;;
    config) printf '%s\n' get set unset list ;;
    help) printf '%s\n' auth subscribers customfields segments campaigns templates transactional webhooks api config sandbox doctor completion environment exit-codes formatting import ;;
    'help auth') printf '%s\n' login logout status switch ;;
    'help subscribers') printf '%s\n' add update import history lists ;;
    'help customfields') printf '%s\n' create ;;
    'help segments') printf '%s\n' create get update add-rules clear-rules ;;
    'help campaigns') printf '%s\n' create preview unschedule unsubscribes summary open scheduled sent ;;
    'help templates') printf '%s\n' create ;;
    'help transactional') printf '%s\n' list get stats ;;
    'help webhooks') printf '%s\n' listen replay trigger ;;
    'help config') printf '%s\n' get set unset list ;;
  esac
}

_email_options() {
  case "$1" in
    '') printf '%s\n' -v --version --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    auth) printf '%s\n' -h --help ;;
    'auth login') printf '%s\n' --with-key --insecure-storage --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'auth logout') printf '%s\n' --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'auth status') printf '%s\n' --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'auth switch') printf '%s\n' --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    subscribers) printf '%s\n' -h --help ;;
    'subscribers add') printf '%s\n' --list --email --name --field --consent --resubscribe --restart-autoresponders --allow-empty-name --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'subscribers update') printf '%s\n' --list --email --new-email --name --field --clear-field --consent --resubscribe --restart-autoresponders --allow-empty-name --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'subscribers import') printf '%s\n' --list --map --only-mapped --include-unsubscribed --allow-empty-names --strict --consent --resubscribe --queue-autoresponders --restart-autoresponders --batch-size --concurrency --delimiter --encoding --multi-separator --date-only --dry-run --failures --journal --resume --restart --progress --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'subscribers history') printf '%s\n' --list --email --fields --jq --wide --bom --limit --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'subscribers lists') printf '%s\n' --email --fields --jq --wide --bom --limit --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    customfields) printf '%s\n' -h --help ;;
    'customfields create') printf '%s\n' --list --name --type --option --visible --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    segments) printf '%s\n' -h --help ;;
    'segments create') printf '%s\n' --list --title --group --from-file --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'segments get') printf '%s\n' --segment --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'segments update') printf '%s\n' --segment --title --group --from-file --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'segments add-rules') printf '%s\n' --segment --group --from-file --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'segments clear-rules') printf '%s\n' --segment -y --yes --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    campaigns) printf '%s\n' -h --help ;;
    'campaigns create') printf '%s\n' --name --subject --from-name --from-email --reply-to --html-url --text-url --list --segment --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'campaigns preview') printf '%s\n' --campaign --to --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'campaigns unschedule') printf '%s\n' --campaign -y --yes --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'campaigns unsubscribes') printf '%s\n' --campaign --since --page --page-size --order-field --order-direction --all --concurrency --fields --jq --wide --bom --limit --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'campaigns summary') printf '%s\n' --campaign -w --web --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'campaigns open') printf '%s\n' --campaign --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'campaigns scheduled') printf '%s\n' --fields --jq --wide --bom --limit --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'campaigns sent') printf '%s\n' --fields --jq --wide --bom --limit --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    templates) printf '%s\n' -h --help ;;
    'templates create') printf '%s\n' --name --html-url --zip-url --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    transactional) printf '%s\n' -h --help ;;
    'transactional list') printf '%s\n' --status --fields --jq --wide --bom --limit --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'transactional get') printf '%s\n' --smart-email -w --web --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'transactional stats') printf '%s\n' --group --smart-email --from --to --timezone --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    webhooks) printf '%s\n' -h --help ;;
    'webhooks listen') printf '%s\n' --port --host --forward-to --save --events --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'webhooks replay') printf '%s\n' --to --interval --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'webhooks trigger') printf '%s\n' --to --type --count --format --list --batch-size --interval --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    api) printf '%s\n' -X --method -d --data -f --raw-field -F --field -H --header -i --include --query --paginate --concurrency --fields --jq --wide --bom --limit --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    config) printf '%s\n' -h --help ;;
    'config get') printf '%s\n' --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'config set') printf '%s\n' --name --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'config unset') printf '%s\n' --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'config list') printf '%s\n' --fields --jq --wide --bom --limit --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    sandbox) printf '%s\n' --port --host --state --api-key --latency --fail-rate --rate-limit --webhook --webhook-format --webhook-interval --webhook-tolerance --unsubscribes --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    doctor) printf '%s\n' --fields --jq --wide --bom --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    completion) printf '%s\n' --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    help) printf '%s\n' --profile --base-url --insecure-http -o --output --json -q --quiet --debug --timeout --no-color --no-pager -h --help ;;
    'help auth') printf '%s\n'  ;;
    'help auth login') printf '%s\n'  ;;
    'help auth logout') printf '%s\n'  ;;
    'help auth status') printf '%s\n'  ;;
    'help auth switch') printf '%s\n'  ;;
    'help subscribers') printf '%s\n'  ;;
    'help subscribers add') printf '%s\n'  ;;
    'help subscribers update') printf '%s\n'  ;;
    'help subscribers import') printf '%s\n'  ;;
    'help subscribers history') printf '%s\n'  ;;
    'help subscribers lists') printf '%s\n'  ;;
    'help customfields') printf '%s\n'  ;;
    'help customfields create') printf '%s\n'  ;;
    'help segments') printf '%s\n'  ;;
    'help segments create') printf '%s\n'  ;;
    'help segments get') printf '%s\n'  ;;
    'help segments update') printf '%s\n'  ;;
    'help segments add-rules') printf '%s\n'  ;;
    'help segments clear-rules') printf '%s\n'  ;;
    'help campaigns') printf '%s\n'  ;;
    'help campaigns create') printf '%s\n'  ;;
    'help campaigns preview') printf '%s\n'  ;;
    'help campaigns unschedule') printf '%s\n'  ;;
    'help campaigns unsubscribes') printf '%s\n'  ;;
    'help campaigns summary') printf '%s\n'  ;;
    'help campaigns open') printf '%s\n'  ;;
    'help campaigns scheduled') printf '%s\n'  ;;
    'help campaigns sent') printf '%s\n'  ;;
    'help templates') printf '%s\n'  ;;
    'help templates create') printf '%s\n'  ;;
    'help transactional') printf '%s\n'  ;;
    'help transactional list') printf '%s\n'  ;;
    'help transactional get') printf '%s\n'  ;;
    'help transactional stats') printf '%s\n'  ;;
    'help webhooks') printf '%s\n'  ;;
    'help webhooks listen') printf '%s\n'  ;;
    'help webhooks replay') printf '%s\n'  ;;
    'help webhooks trigger') printf '%s\n'  ;;
    'help api') printf '%s\n'  ;;
    'help config') printf '%s\n'  ;;
    'help config get') printf '%s\n'  ;;
    'help config set') printf '%s\n'  ;;
    'help config unset') printf '%s\n'  ;;
    'help config list') printf '%s\n'  ;;
    'help sandbox') printf '%s\n'  ;;
    'help doctor') printf '%s\n'  ;;
    'help completion') printf '%s\n'  ;;
    'help environment') printf '%s\n'  ;;
    'help exit-codes') printf '%s\n'  ;;
    'help formatting') printf '%s\n'  ;;
    'help import') printf '%s\n'  ;;
  esac
}

_email_value_options() {
  case "$1" in
    '') printf '%s\n' --profile --base-url -o --output --timeout ;;
    'auth login') printf '%s\n' --profile --base-url -o --output --timeout ;;
    'auth logout') printf '%s\n' --profile --base-url -o --output --timeout ;;
    'auth status') printf '%s\n' --fields --jq --profile --base-url -o --output --timeout ;;
    'auth switch') printf '%s\n' --profile --base-url -o --output --timeout ;;
    'subscribers add') printf '%s\n' --list --email --name --field --consent --fields --jq --profile --base-url -o --output --timeout ;;
    'subscribers update') printf '%s\n' --list --email --new-email --name --field --clear-field --consent --fields --jq --profile --base-url -o --output --timeout ;;
    'subscribers import') printf '%s\n' --list --map --consent --batch-size --concurrency --delimiter --encoding --multi-separator --failures --journal --fields --jq --profile --base-url -o --output --timeout ;;
    'subscribers history') printf '%s\n' --list --email --fields --jq --limit --profile --base-url -o --output --timeout ;;
    'subscribers lists') printf '%s\n' --email --fields --jq --limit --profile --base-url -o --output --timeout ;;
    'customfields create') printf '%s\n' --list --name --type --option --fields --jq --profile --base-url -o --output --timeout ;;
    'segments create') printf '%s\n' --list --title --group --from-file --fields --jq --profile --base-url -o --output --timeout ;;
    'segments get') printf '%s\n' --segment --fields --jq --profile --base-url -o --output --timeout ;;
    'segments update') printf '%s\n' --segment --title --group --from-file --fields --jq --profile --base-url -o --output --timeout ;;
    'segments add-rules') printf '%s\n' --segment --group --from-file --fields --jq --profile --base-url -o --output --timeout ;;
    'segments clear-rules') printf '%s\n' --segment --fields --jq --profile --base-url -o --output --timeout ;;
    'campaigns create') printf '%s\n' --name --subject --from-name --from-email --reply-to --html-url --text-url --list --segment --fields --jq --profile --base-url -o --output --timeout ;;
    'campaigns preview') printf '%s\n' --campaign --to --fields --jq --profile --base-url -o --output --timeout ;;
    'campaigns unschedule') printf '%s\n' --campaign --fields --jq --profile --base-url -o --output --timeout ;;
    'campaigns unsubscribes') printf '%s\n' --campaign --since --page --page-size --order-field --order-direction --concurrency --fields --jq --limit --profile --base-url -o --output --timeout ;;
    'campaigns summary') printf '%s\n' --campaign --fields --jq --profile --base-url -o --output --timeout ;;
    'campaigns open') printf '%s\n' --campaign --fields --jq --profile --base-url -o --output --timeout ;;
    'campaigns scheduled') printf '%s\n' --fields --jq --limit --profile --base-url -o --output --timeout ;;
    'campaigns sent') printf '%s\n' --fields --jq --limit --profile --base-url -o --output --timeout ;;
    'templates create') printf '%s\n' --name --html-url --zip-url --fields --jq --profile --base-url -o --output --timeout ;;
    'transactional list') printf '%s\n' --status --fields --jq --limit --profile --base-url -o --output --timeout ;;
    'transactional get') printf '%s\n' --smart-email --fields --jq --profile --base-url -o --output --timeout ;;
    'transactional stats') printf '%s\n' --group --smart-email --from --to --timezone --fields --jq --profile --base-url -o --output --timeout ;;
    'webhooks listen') printf '%s\n' --port --host --forward-to --save --events --fields --jq --profile --base-url -o --output --timeout ;;
    'webhooks replay') printf '%s\n' --to --interval --fields --jq --profile --base-url -o --output --timeout ;;
    'webhooks trigger') printf '%s\n' --to --type --count --format --list --batch-size --interval --fields --jq --profile --base-url -o --output --timeout ;;
    api) printf '%s\n' -X --method -d --data -f --raw-field -F --field -H --header --query --concurrency --fields --jq --limit --profile --base-url -o --output --timeout ;;
    'config get') printf '%s\n' --fields --jq --profile --base-url -o --output --timeout ;;
    'config set') printf '%s\n' --name --fields --jq --profile --base-url -o --output --timeout ;;
    'config unset') printf '%s\n' --fields --jq --profile --base-url -o --output --timeout ;;
    'config list') printf '%s\n' --fields --jq --limit --profile --base-url -o --output --timeout ;;
    sandbox) printf '%s\n' --port --host --state --api-key --latency --fail-rate --rate-limit --webhook --webhook-format --webhook-interval --webhook-tolerance --unsubscribes --fields --jq --profile --base-url -o --output --timeout ;;
    doctor) printf '%s\n' --fields --jq --profile --base-url -o --output --timeout ;;
    completion) printf '%s\n' --profile --base-url -o --output --timeout ;;
    help) printf '%s\n' --profile --base-url -o --output --timeout ;;
  esac
}

# How the value of an option is completed: choices:<words>, file, dir, profile or ids:<resource>.
_email_option_value() {
  case "$1|$2" in
    '|--profile') echo profile ;;
    '|-o') echo 'choices:table json ndjson csv' ;;
    '|--output') echo 'choices:table json ndjson csv' ;;
    'auth login|--profile') echo profile ;;
    'auth login|-o') echo 'choices:table json ndjson csv' ;;
    'auth login|--output') echo 'choices:table json ndjson csv' ;;
    'auth logout|--profile') echo profile ;;
    'auth logout|-o') echo 'choices:table json ndjson csv' ;;
    'auth logout|--output') echo 'choices:table json ndjson csv' ;;
    'auth status|--fields') echo 'choices:profile default inEffect baseUrl key keyStore defaults check' ;;
    'auth status|--profile') echo profile ;;
    'auth status|-o') echo 'choices:table json ndjson csv' ;;
    'auth status|--output') echo 'choices:table json ndjson csv' ;;
    'auth switch|--profile') echo profile ;;
    'auth switch|-o') echo 'choices:table json ndjson csv' ;;
    'auth switch|--output') echo 'choices:table json ndjson csv' ;;
    'subscribers add|--list') echo ids:list ;;
    'subscribers add|--consent') echo 'choices:yes no' ;;
    'subscribers add|--profile') echo profile ;;
    'subscribers add|-o') echo 'choices:table json ndjson csv' ;;
    'subscribers add|--output') echo 'choices:table json ndjson csv' ;;
    'subscribers update|--list') echo ids:list ;;
    'subscribers update|--consent') echo 'choices:yes no' ;;
    'subscribers update|--fields') echo 'choices:ListID EmailAddress Name CustomFields CustomFields.Key CustomFields.Value CustomFields.Clear ConsentToTrack Resubscribe RestartSubscriptionBasedAutoresponders' ;;
    'subscribers update|--profile') echo profile ;;
    'subscribers update|-o') echo 'choices:table json ndjson csv' ;;
    'subscribers update|--output') echo 'choices:table json ndjson csv' ;;
    'subscribers import|--list') echo ids:list ;;
    'subscribers import|--consent') echo 'choices:yes no unchanged' ;;
    'subscribers import|--failures') echo file ;;
    'subscribers import|--journal') echo file ;;
    'subscribers import|--fields') echo 'choices:rows new existing failed rejected duplicates partial duplicatesFromFailuresFile skipped batches retries rateLimited waitedMs elapsedMs resumed service service.TotalUniqueEmailsSubmitted service.TotalExistingSubscribers service.TotalNewSubscribers complete dryRun wouldSend resumedBatches unacknowledgedBatches unfinished blankLines codes rowsPerSecond input list delimiter encoding failuresFile journal stoppedBy mapping problems firstRequest' ;;
    'subscribers import|--profile') echo profile ;;
    'subscribers import|-o') echo 'choices:table json ndjson csv' ;;
    'subscribers import|--output') echo 'choices:table json ndjson csv' ;;
    'subscribers history|--list') echo ids:list ;;
    'subscribers history|--fields') echo 'choices:ID Type Name Actions Actions.Event Actions.Date Actions.IPAddress Actions.Detail' ;;
    'subscribers history|--profile') echo profile ;;
    'subscribers history|-o') echo 'choices:table json ndjson csv' ;;
    'subscribers history|--output') echo 'choices:table json ndjson csv' ;;
    'subscribers lists|--fields') echo 'choices:ListID ListName SubscriberState DateSubscriberAdded' ;;
    'subscribers lists|--profile') echo profile ;;
    'subscribers lists|-o') echo 'choices:table json ndjson csv' ;;
    'subscribers lists|--output') echo 'choices:table json ndjson csv' ;;
    'customfields create|--list') echo ids:list ;;
    'customfields create|--type') echo 'choices:Text Number MultiSelectOne MultiSelectMany Date Country USState' ;;
    'customfields create|--profile') echo profile ;;
    'customfields create|-o') echo 'choices:table json ndjson csv' ;;
    'customfields create|--output') echo 'choices:table json ndjson csv' ;;
    'segments create|--list') echo ids:list ;;
    'segments create|--profile') echo profile ;;
    'segments create|-o') echo 'choices:table json ndjson csv' ;;
    'segments create|--output') echo 'choices:table json ndjson csv' ;;
    'segments get|--fields') echo 'choices:ListID SegmentID Title ActiveSubscribers RuleGroups RuleGroups.Rules RuleGroups.Rules.RuleType RuleGroups.Rules.Clause' ;;
    'segments get|--profile') echo profile ;;
    'segments get|-o') echo 'choices:table json ndjson csv' ;;
    'segments get|--output') echo 'choices:table json ndjson csv' ;;
    'segments update|--fields') echo 'choices:SegmentID Title RuleGroups RuleGroups.Rules RuleGroups.Rules.RuleType RuleGroups.Rules.Clause' ;;
    'segments update|--profile') echo profile ;;
    'segments update|-o') echo 'choices:table json ndjson csv' ;;
    'segments update|--output') echo 'choices:table json ndjson csv' ;;
    'segments add-rules|--fields') echo 'choices:SegmentID RuleGroup RuleGroup.Rules RuleGroup.Rules.RuleType RuleGroup.Rules.Clause' ;;
    'segments add-rules|--profile') echo profile ;;
    'segments add-rules|-o') echo 'choices:table json ndjson csv' ;;
    'segments add-rules|--output') echo 'choices:table json ndjson csv' ;;
    'segments clear-rules|--fields') echo 'choices:SegmentID RuleGroups' ;;
    'segments clear-rules|--profile') echo profile ;;
    'segments clear-rules|-o') echo 'choices:table json ndjson csv' ;;
    'segments clear-rules|--output') echo 'choices:table json ndjson csv' ;;
    'campaigns create|--list') echo ids:list ;;
    'campaigns create|--profile') echo profile ;;
    'campaigns create|-o') echo 'choices:table json ndjson csv' ;;
    'campaigns create|--output') echo 'choices:table json ndjson csv' ;;
    'campaigns preview|--campaign') echo ids:campaign ;;
    'campaigns preview|--fields') echo 'choices:CampaignID PreviewRecipients' ;;
    'campaigns preview|--profile') echo profile ;;
    'campaigns preview|-o') echo 'choices:table json ndjson csv' ;;
    'campaigns preview|--output') echo 'choices:table json ndjson csv' ;;
    'campaigns unschedule|--campaign') echo ids:campaign ;;
    'campaigns unschedule|--fields') echo choices:CampaignID ;;
    'campaigns unschedule|--profile') echo profile ;;
    'campaigns unschedule|-o') echo 'choices:table json ndjson csv' ;;
    'campaigns unschedule|--output') echo 'choices:table json ndjson csv' ;;
    'campaigns unsubscribes|--campaign') echo ids:campaign ;;
    'campaigns unsubscribes|--order-field') echo 'choices:email name date' ;;
    'campaigns unsubscribes|--order-direction') echo 'choices:asc desc' ;;
    'campaigns unsubscribes|--fields') echo 'choices:EmailAddress ListID Date IPAddress' ;;
    'campaigns unsubscribes|--profile') echo profile ;;
    'campaigns unsubscribes|-o') echo 'choices:table json ndjson csv' ;;
    'campaigns unsubscribes|--output') echo 'choices:table json ndjson csv' ;;
    'campaigns summary|--campaign') echo ids:campaign ;;
    'campaigns summary|--fields') echo 'choices:Recipients TotalOpened Clicks Unsubscribed Bounced UniqueOpened SpamComplaints Forwards Likes Mentions WebVersionURL WebVersionTextURL WorldviewURL' ;;
    'campaigns summary|--profile') echo profile ;;
    'campaigns summary|-o') echo 'choices:table json ndjson csv' ;;
    'campaigns summary|--output') echo 'choices:table json ndjson csv' ;;
    'campaigns open|--campaign') echo ids:campaign ;;
    'campaigns open|--fields') echo choices:URL ;;
    'campaigns open|--profile') echo profile ;;
    'campaigns open|-o') echo 'choices:table json ndjson csv' ;;
    'campaigns open|--output') echo 'choices:table json ndjson csv' ;;
    'campaigns scheduled|--fields') echo 'choices:CampaignID Name Subject FromName FromEmail ReplyTo DateCreated PreviewURL PreviewTextURL DateScheduled ScheduledTimeZone' ;;
    'campaigns scheduled|--profile') echo profile ;;
    'campaigns scheduled|-o') echo 'choices:table json ndjson csv' ;;
    'campaigns scheduled|--output') echo 'choices:table json ndjson csv' ;;
    'campaigns sent|--fields') echo 'choices:CampaignID Name Subject FromName FromEmail ReplyTo WebVersionURL WebVersionTextURL SentDate TotalRecipients' ;;
    'campaigns sent|--profile') echo profile ;;
    'campaigns sent|-o') echo 'choices:table json ndjson csv' ;;
    'campaigns sent|--output') echo 'choices:table json ndjson csv' ;;
    'templates create|--profile') echo profile ;;
    'templates create|-o') echo 'choices:table json ndjson csv' ;;
    'templates create|--output') echo 'choices:table json ndjson csv' ;;
    'transactional list|--status') echo 'choices:all active draft' ;;
    'transactional list|--fields') echo 'choices:ID Name Status CreatedAt' ;;
    'transactional list|--profile') echo profile ;;
    'transactional list|-o') echo 'choices:table json ndjson csv' ;;
    'transactional list|--output') echo 'choices:table json ndjson csv' ;;
    'transactional get|--smart-email') echo ids:smart-email ;;
    'transactional get|--fields') echo 'choices:SmartEmailID CreatedAt Status Name Properties Properties.From Properties.ReplyTo Properties.Subject Properties.Content Properties.Content.Html Properties.Content.Text Properties.Content.EmailVariables Properties.Content.InlineCss Properties.TextPreviewUrl Properties.HtmlPreviewUrl AddRecipientsToList' ;;
    'transactional get|--profile') echo profile ;;
    'transactional get|-o') echo 'choices:table json ndjson csv' ;;
    'transactional get|--output') echo 'choices:table json ndjson csv' ;;
    'transactional stats|--smart-email') echo ids:smart-email ;;
    'transactional stats|--timezone') echo 'choices:utc client' ;;
    'transactional stats|--fields') echo 'choices:Query Query.Group Query.SmartEmailID Query.From Query.To Query.TimeZone Sent Bounces Delivered Opened Clicked' ;;
    'transactional stats|--profile') echo profile ;;
    'transactional stats|-o') echo 'choices:table json ndjson csv' ;;
    'transactional stats|--output') echo 'choices:table json ndjson csv' ;;
    'webhooks listen|--save') echo dir ;;
    'webhooks listen|--fields') echo 'choices:Type Date OldEmailAddress EmailAddress Name State CustomFields CustomFields.Key CustomFields.Value SignupIPAddress ListID' ;;
    'webhooks listen|--profile') echo profile ;;
    'webhooks listen|-o') echo 'choices:table json ndjson csv' ;;
    'webhooks listen|--output') echo 'choices:table json ndjson csv' ;;
    'webhooks replay|--fields') echo 'choices:file events status elapsedMs error' ;;
    'webhooks replay|--profile') echo profile ;;
    'webhooks replay|-o') echo 'choices:table json ndjson csv' ;;
    'webhooks replay|--output') echo 'choices:table json ndjson csv' ;;
    'webhooks trigger|--type') echo 'choices:Subscribe Update Deactivate' ;;
    'webhooks trigger|--format') echo 'choices:json xml' ;;
    'webhooks trigger|--list') echo ids:list ;;
    'webhooks trigger|--fields') echo 'choices:request events status elapsedMs error' ;;
    'webhooks trigger|--profile') echo profile ;;
    'webhooks trigger|-o') echo 'choices:table json ndjson csv' ;;
    'webhooks trigger|--output') echo 'choices:table json ndjson csv' ;;
    'api|-X') echo 'choices:GET POST PUT DELETE PATCH' ;;
    'api|--method') echo 'choices:GET POST PUT DELETE PATCH' ;;
    'api|--profile') echo profile ;;
    'api|-o') echo 'choices:table json ndjson csv' ;;
    'api|--output') echo 'choices:table json ndjson csv' ;;
    'config get|--profile') echo profile ;;
    'config get|-o') echo 'choices:table json ndjson csv' ;;
    'config get|--output') echo 'choices:table json ndjson csv' ;;
    'config set|--fields') echo 'choices:Profile Key Value Name' ;;
    'config set|--profile') echo profile ;;
    'config set|-o') echo 'choices:table json ndjson csv' ;;
    'config set|--output') echo 'choices:table json ndjson csv' ;;
    'config unset|--fields') echo 'choices:Profile Key Value' ;;
    'config unset|--profile') echo profile ;;
    'config unset|-o') echo 'choices:table json ndjson csv' ;;
    'config unset|--output') echo 'choices:table json ndjson csv' ;;
    'config list|--fields') echo 'choices:Key Value Name' ;;
    'config list|--profile') echo profile ;;
    'config list|-o') echo 'choices:table json ndjson csv' ;;
    'config list|--output') echo 'choices:table json ndjson csv' ;;
    'sandbox|--state') echo file ;;
    'sandbox|--webhook-format') echo 'choices:json xml' ;;
    'sandbox|--fields') echo 'choices:baseUrl apiKey lists lists.ListID lists.Name campaigns campaigns.CampaignID campaigns.Name campaigns.Status segments segments.SegmentID segments.ListID segments.Title smartEmails smartEmails.ID smartEmails.Name smartEmails.Status' ;;
    'sandbox|--profile') echo profile ;;
    'sandbox|-o') echo 'choices:table json ndjson csv' ;;
    'sandbox|--output') echo 'choices:table json ndjson csv' ;;
    'doctor|--fields') echo 'choices:check status detail hint' ;;
    'doctor|--profile') echo profile ;;
    'doctor|-o') echo 'choices:table json ndjson csv' ;;
    'doctor|--output') echo 'choices:table json ndjson csv' ;;
    'completion|--profile') echo profile ;;
    'completion|-o') echo 'choices:table json ndjson csv' ;;
    'completion|--output') echo 'choices:table json ndjson csv' ;;
    'help|--profile') echo profile ;;
    'help|-o') echo 'choices:table json ndjson csv' ;;
    'help|--output') echo 'choices:table json ndjson csv' ;;
  esac
}

# How a positional argument is completed.
_email_positional() {
  case "$1" in
    'auth switch') echo profile ;;
    'subscribers import') echo file ;;
    'campaigns preview') echo ids:campaign ;;
    'campaigns unschedule') echo ids:campaign ;;
    'campaigns unsubscribes') echo ids:campaign ;;
    'campaigns summary') echo ids:campaign ;;
    'campaigns open') echo ids:campaign ;;
    'transactional get') echo ids:smart-email ;;
    'webhooks replay') echo file ;;
    'config get') echo 'choices:list output pager' ;;
    'config set') echo 'choices:list output pager' ;;
    'config unset') echo 'choices:list output pager' ;;
    completion) echo 'choices:bash zsh fish' ;;
  esac
}

# Offers each line of stdin that starts with the word typed, as text: matched
# here and quoted for the line (printf %q), never handed to compgen -W, which
# expands each word it is given ($(…) in a profile name would run).
_email_offer() {
  local cur="$1" word quoted
  while IFS= read -r word; do
    [[ -n "$word" && "$word" == "$cur"* ]] || continue
    printf -v quoted '%q' "$word"
    COMPREPLY+=("$quoted")
  done
}

_email_complete_value() {
  local how="$1" cur="$2"
  case "$how" in
    choices:*) local -a words; read -ra words <<< "${how#choices:}"; _email_offer "$cur" < <(printf '%s\n' "${words[@]}") ;;
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    profile) _email_offer "$cur" < <(command email __profiles 2>/dev/null) ;;
    # Ids from the service (`email __ids`: an id, a tab, its name; bash shows ids alone), for
    # the profile and base URL typed on the line.
    ids:*) _email_offer "$cur" < <(command email __ids "${how#ids:}" "${_email_globals[@]}" 2>/dev/null | cut -f1) ;;
    *) COMPREPLY=() ;;
  esac
}

_email() {
  local cur="${COMP_WORDS[COMP_CWORD]}" path="" word i expect="" owner=""
  # The profile and base URL typed on the line, which `email __ids` is asked with.
  local -a _email_globals=()
  COMPREPLY=()
  # Walk the words before the cursor: subcommands extend the path; an option
  # that takes a value makes the next word its value ("--opt=value" too,
  # which bash splits at "=").
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    if [[ -n "$expect" ]]; then
      expect=""
      if [[ "$word" == "=" ]]; then expect="="; continue; fi
      case "$owner" in --profile|--base-url) _email_globals+=("$owner" "$word") ;; esac
      continue
    fi
    case "$word" in
      --insecure-http|--profile=*|--base-url=*) _email_globals+=("$word"); continue ;;
      -*)
        if [[ " $(_email_value_options "$path" | tr '\n' ' ') " == *" $word "* ]]; then expect="$word"; owner="$word"; fi
        continue ;;
    esac
    if [[ " $(_email_subcommands "$path" | tr '\n' ' ') " == *" $word "* ]]; then
      path="${path:+$path }$word"
    fi
  done

  local prev="${COMP_WORDS[COMP_CWORD-1]}" option=""
  if [[ "$cur" == "=" && "$prev" == -* ]]; then option="$prev"; cur="";
  elif [[ "$prev" == "=" && COMP_CWORD -ge 2 && "${COMP_WORDS[COMP_CWORD-2]}" == -* ]]; then option="${COMP_WORDS[COMP_CWORD-2]}";
  elif [[ -n "$expect" ]]; then option="$prev"; fi
  if [[ -n "$option" ]]; then
    [[ " $(_email_value_options "$path" | tr '\n' ' ') " == *" $option "* ]] || return 0
    _email_complete_value "$(_email_option_value "$path" "$option")" "$cur"
    return 0
  fi

  if [[ "$cur" == -* ]]; then
    _email_offer "$cur" < <(_email_options "$path")
    return 0
  fi
  local subcommands
  subcommands="$(_email_subcommands "$path")"
  if [[ -n "$subcommands" ]]; then
    _email_offer "$cur" <<< "$subcommands"
    return 0
  fi
  _email_complete_value "$(_email_positional "$path")" "$cur"
}

complete -F _email email
