import { useId, useState } from 'react';
import { uploadBannerImage } from './use-settings';

/** Uploads a banner picture and hands its URL to the form, which saves it with the other settings. */
export function BannerUpload({ onUploaded }: { onUploaded: (url: string) => void }) {
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const upload = async (file: File) => {
    setProgress(0);
    const url = await uploadBannerImage(file, setProgress);
    setProgress(null);
    if (url) onUploaded(url);
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        Upload a banner image
      </label>
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
        disabled={progress !== null}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void upload(file);
          e.target.value = '';
        }}
        className="mt-1 block text-sm"
      />
      {progress !== null ? (
        <progress className="mt-2 w-full" max={100} value={progress} aria-label="Upload progress" />
      ) : null}
    </div>
  );
}
