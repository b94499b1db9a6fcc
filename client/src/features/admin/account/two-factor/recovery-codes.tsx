import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button';

/**
 * The ten recovery codes, shown once: to write down, copy or download. Each signs in once when the phone
 * is not at hand.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  const intro = useRef<HTMLParagraphElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  // The codes replace the button that made them: focus moves to what they say.
  useEffect(() => intro.current?.focus(), []);
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    document.body.append(a);
    a.click();
    a.remove();
    // Some browsers read the address after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  const copy = () => {
    const done = navigator.clipboard?.writeText(text);
    if (!done) {
      setCopied('Copying is not available here: select the codes, or download them.');
      return;
    }
    done.then(
      () => setCopied('Copied.'),
      () => setCopied('Could not copy: select the codes, or download them.'),
    );
  };
  return (
    <div className="space-y-4">
      <p className="text-sm" ref={intro} tabIndex={-1}>
        Keep these recovery codes somewhere safe, away from your phone. Each one signs you in once if you lose
        your authenticator app. They are shown only now.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 rounded-lg bg-sand/60 p-4 font-mono text-sm"
      >
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={copy}>
          Copy
        </Button>
        <Button type="button" variant="secondary" onClick={download}>
          Download
        </Button>
        <Button type="button" onClick={onDone}>
          I have saved them
        </Button>
      </div>
      <p className="text-sm text-muted" role="status">
        {copied}
      </p>
    </div>
  );
}
