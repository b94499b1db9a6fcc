import type { InputHTMLAttributes } from 'react';
import { TextField } from '../../../../components/ui/text-field';

/** Where an admin types a code from the app, or a recovery code. */
export function SecondFactorField(
  props: Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
    value: string;
    onValue: (value: string) => void;
    error?: string | null;
    label?: string;
  },
) {
  const { onValue, label = 'Code from your authenticator app', ...rest } = props;
  return (
    <TextField
      label={label}
      name="code"
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={40}
      required
      hint="The 6-digit code, or one of your recovery codes."
      onChange={(e) => onValue(e.target.value.trim())}
      {...rest}
    />
  );
}
