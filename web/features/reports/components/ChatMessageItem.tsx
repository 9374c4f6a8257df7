/**
 * One entry of the assistant's conversation: the user's request on the right; the bot's reply on
 * the left as formatted text with 'Download Report CSV' when it has records; or, while a report
 * is being made, the bot's bouncing dots.
 */
import type { Ref } from 'react';
import { Bot, Download } from 'lucide-react';
import { Button } from '../../../components/ui/Button';
import { csvFileName, type ChatMessage } from '../assistant-chat';
import { downloadCsv } from '../download-csv';
import { ReportMarkdown } from './ReportMarkdown';

function BotAvatar() {
  return (
    <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-blue-100 text-blue-700" aria-hidden="true">
      <Bot className="size-5" />
    </span>
  );
}

interface ChatMessageItemProps {
  message: ChatMessage;
  ref?: Ref<HTMLLIElement>;
}

/** Renders the message as a list item. */
export function ChatMessageItem({ message, ref }: ChatMessageItemProps) {
  if (message.sender === 'user') {
    return (
      <li ref={ref} className="flex justify-end" data-testid="user-message">
        <p className="max-w-[85%] rounded-2xl rounded-br-sm bg-blue-700 px-4 py-2 text-base break-words text-white">{message.text}</p>
      </li>
    );
  }
  const { csv } = message;
  return (
    <li ref={ref} className="flex items-start gap-2" data-testid="bot-message">
      <BotAvatar />
      <div className="min-w-0 flex-1 rounded-2xl rounded-tl-sm bg-slate-100 px-4 py-3 text-slate-800">
        <ReportMarkdown text={message.text} />
        {csv !== undefined && (
          <Button variant="secondary" className="mt-3 w-full sm:w-auto" onClick={() => downloadCsv(csv, csvFileName(new Date()))}>
            <Download className="size-5" aria-hidden="true" />
            Download Report CSV
          </Button>
        )}
      </div>
    </li>
  );
}

/** The bot's placeholder while a report is being made. */
export function TypingIndicator({ ref }: { ref?: Ref<HTMLLIElement> }) {
  return (
    <li ref={ref} className="flex items-start gap-2" data-testid="bot-typing">
      <BotAvatar />
      <div className="rounded-2xl rounded-tl-sm bg-slate-100 px-4 py-4">
        <span role="status" aria-label="Generating report" className="flex gap-1.5">
          {[0, 150, 300].map((delay) => (
            <span key={delay} className="size-2 animate-bounce rounded-full bg-slate-500" style={{ animationDelay: `${delay}ms` }} />
          ))}
        </span>
      </div>
    </li>
  );
}
